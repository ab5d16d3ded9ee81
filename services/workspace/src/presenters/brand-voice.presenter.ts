import type { BrandVoiceResponse } from '@aict/contracts';
import type { BrandVoiceView } from '../domain/brand-voice';

export function presentBrandVoice(view: BrandVoiceView): BrandVoiceResponse {
  return {
    workspaceId: view.workspaceId,
    tone: view.tone,
    avoidWords: view.avoidWords,
    useWords: view.useWords,
    example: view.example,
    updatedAt: view.updatedAt ? view.updatedAt.toISOString() : null,
  };
}
