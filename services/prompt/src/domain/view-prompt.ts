import type { TrustedContext } from '@aict/contracts';
import type { PromptRecord } from '../data/prompt.model';
import { imagesChain, type ReferenceImageRecord } from '../data/prompt-images.model';
import { isDefaultInView, seesFullPrompt } from './access';
import type { DomainDeps } from './domain-deps';

/** A prompt's reference images, in order (reads by `_id`). */
export async function imagesOf(d: DomainDeps, promptId: string): Promise<ReferenceImageRecord[]> {
  return (await d.images.latest(imagesChain(promptId)))?.value.images ?? [];
}

/** A prompt as a use case hands it to its route: full (template, images) or the summary. */
export type PromptDetail = { record: PromptRecord; isDefault: boolean } & (
  { full: true; images: readonly ReferenceImageRecord[] } | { full: false }
);

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
): Promise<PromptDetail> {
  const isDefault = known.isDefault ?? (await isDefaultInView(d, record, inView));
  if (!seesFullPrompt(ctx, record, inView)) return { record, isDefault, full: false };
  const images = known.images ?? (await imagesOf(d, record._id));
  return { record, isDefault, full: true, images };
}
