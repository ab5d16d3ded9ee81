import { BRAND_VOICE_ROUTES } from '@aict/contracts';
import type { MountRoute } from '@aict/service-kit';
import { getBrandVoice, putBrandVoice } from '../domain/brand-voice';
import type { DomainDeps } from '../domain/domain-deps';
import { presentBrandVoice } from '../presenters/brand-voice.presenter';

/** A workspace's brand voice (issue 18): members read it, its admins write it. */
export function brandVoiceRoutes(mount: MountRoute, d: DomainDeps): void {
  mount(BRAND_VOICE_ROUTES.get, async ({ ctx, workspaceId }) =>
    presentBrandVoice(await getBrandVoice(d, ctx, workspaceId!)),
  );

  mount(BRAND_VOICE_ROUTES.put, async ({ ctx, body, workspaceId }) =>
    presentBrandVoice(await putBrandVoice(d, ctx, workspaceId!, body)),
  );
}
