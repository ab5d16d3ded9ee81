import type {
  Prompt,
  PromptForGenerationReply,
  PromptSummary,
  PromptVersion,
  PromptView,
  TrustedContext,
} from '@aict/contracts';
import { roleIn } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import type { ReferenceImageRecord } from '../data/prompt-images.model';
import { toSummaryEntry, type SummaryEntry } from '../data/prompt-summary.model';
import type { PromptVersionEntry } from '../domain/prompt-versions';
import type { PromptDetail } from '../domain/view-prompt';
import { referenceImageUrl } from '../lib/reference-image-url';

// The only place a prompt becomes a response (its events: domain/prompt-snapshot.ts).
// Non-admins get the summary: no template, no reference images (SPEC §6). The author's id and the prompt's workspace id go
// only to those who may know them: members of the prompt's workspace, its author and super
// admins. A published prompt seen from another workspace carries neither.

/** Whether the viewer may know who wrote the prompt and where it lives. */
function knowsAuthor(ctx: TrustedContext, entry: Pick<SummaryEntry, 'userId' | 'workspaceId'>) {
  return (
    ctx.sa ||
    (ctx.uid !== null && entry.userId === ctx.uid) ||
    roleIn(ctx, entry.workspaceId) !== null
  );
}

export function presentSummary(
  ctx: TrustedContext,
  entry: SummaryEntry,
  isDefault: boolean,
): PromptSummary {
  const summary: PromptSummary = {
    id: entry.id,
    name: entry.name,
    category: entry.category,
    contentType: entry.contentType,
    model: entry.model,
    isPublic: entry.isPublic,
    isDefault,
    variables: entry.variables,
    workspaceId: entry.workspaceId,
    userId: entry.userId,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
  if (entry.description) summary.description = entry.description;
  if (!knowsAuthor(ctx, entry)) {
    delete summary.userId;
    delete summary.workspaceId;
  }
  return summary;
}

/** The prompt for one caller: `full` with its template and reference images, else the summary. */
export function presentPrompt(ctx: TrustedContext, detail: PromptDetail): PromptView {
  const { record } = detail;
  const summary = presentSummary(ctx, toSummaryEntry(record), detail.isDefault);
  if (!detail.full) return summary;
  const referenceImageUrls = detail.images.map((image) => referenceImageUrl(record._id, image.id));
  const prompt: Prompt = { ...summary, template: record.template, referenceImageUrls };
  if (referenceImageUrls[0]) prompt.referenceImageUrl = referenceImageUrls[0];
  return prompt;
}

/**
 * The prompt as the generation service gets it (request/reply, never sent to a client): the
 * template, and each reference image as its MinIO object in this service's bucket.
 */
export function presentForGeneration(
  record: PromptRecord,
  images: readonly ReferenceImageRecord[],
  bucket: string,
): Extract<PromptForGenerationReply, { found: true }>['prompt'] {
  return {
    id: record._id,
    name: record.name,
    template: record.template,
    contentType: record.contentType,
    model: record.model,
    workspaceId: record.workspaceId,
    referenceImages: images.map((image) => ({
      bucket,
      key: image.key,
      mimeType: image.contentType,
    })),
    version: record.rev,
  };
}

/** A version of a prompt (issue 18): only admins of its workspace ever receive one. */
export function presentVersion(entry: PromptVersionEntry): PromptVersion {
  const version: PromptVersion = {
    version: entry.version,
    editedBy: entry.editedBy,
    editedAt: entry.editedAt.toISOString(),
    name: entry.name,
    template: entry.template,
    category: entry.category,
    contentType: entry.contentType,
    model: entry.model,
  };
  if (entry.description) version.description = entry.description;
  return version;
}
