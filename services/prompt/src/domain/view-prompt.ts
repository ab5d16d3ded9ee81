import type { PromptView, TrustedContext } from '@aict/contracts';
import type { PromptRecord } from '../data/prompt.model';
import { imagesChain, type ReferenceImageRecord } from '../data/prompt-images.model';
import { presentPrompt } from '../presenters/prompt.presenter';
import { isDefaultInView, seesFullPrompt } from './access';
import type { DomainDeps } from './domain-deps';

/** A prompt's reference images, in order (reads by `_id`). */
export async function imagesOf(d: DomainDeps, promptId: string): Promise<ReferenceImageRecord[]> {
  return (await d.images.latest(imagesChain(promptId)))?.value.images ?? [];
}

/**
 * The prompt as this caller may see it: full (template, reference images) for admins, the
 * summary for others. What the use case already knows is passed in, the rest is read.
 */
export async function viewPrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  record: PromptRecord,
  inView: number | null,
  known: { isDefault?: boolean; images?: readonly ReferenceImageRecord[] } = {},
): Promise<PromptView> {
  const isDefault = known.isDefault ?? (await isDefaultInView(d, record, inView));
  if (!seesFullPrompt(ctx, record, inView))
    return presentPrompt(ctx, record, { isDefault, full: false });
  const images = known.images ?? (await imagesOf(d, record._id));
  return presentPrompt(ctx, record, { isDefault, full: true, images });
}
