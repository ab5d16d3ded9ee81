import type {
  EventData,
  Prompt,
  PromptForGenerationReply,
  PromptSummary,
  PromptView,
  TrustedContext,
} from '@aict/contracts';
import { roleIn } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import type { ReferenceImageRecord } from '../data/prompt-images.model';
import type { SummaryEntry } from '../data/prompt-summary.model';

// The only place a prompt becomes a response or an event. Non-admins get the summary: no
// template, no reference images (SPEC §6). The author's id and the prompt's workspace id go
// only to those who may know them: members of the prompt's workspace, its author and super
// admins. A published prompt seen from another workspace carries neither.

/** The gateway URL of a reference image (never a MinIO URL). */
export function referenceImageUrl(promptId: string, imageId: string): string {
  return `/api/prompts/${encodeURIComponent(promptId)}/reference-images/${encodeURIComponent(imageId)}`;
}

/** The prompt and image ids a reference image URL names (absolute or rooted), or null. */
export function parseReferenceImageUrl(url: string): { promptId: string; imageId: string } | null {
  let path: string;
  try {
    path = new URL(url, 'http://gateway.invalid').pathname;
  } catch {
    return null;
  }
  const match = /^\/api\/prompts\/([^/]+)\/reference-images\/([^/]+)$/.exec(path);
  if (!match) return null;
  try {
    return { promptId: decodeURIComponent(match[1]!), imageId: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

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
export function presentPrompt(
  ctx: TrustedContext,
  record: PromptRecord,
  options: { isDefault: boolean } & (
    { full: true; images: readonly ReferenceImageRecord[] } | { full: false }
  ),
): PromptView {
  const summary = presentSummary(ctx, toSummaryEntry(record), options.isDefault);
  if (!options.full) return summary;
  const referenceImageUrls = options.images.map((image) => referenceImageUrl(record._id, image.id));
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
  };
}

/** What the summary documents hold for a prompt. */
export function toSummaryEntry(record: Omit<PromptRecord, 'template'>): SummaryEntry {
  const entry: SummaryEntry = {
    id: record._id,
    name: record.name,
    category: record.category,
    contentType: record.contentType,
    model: record.model,
    isPublic: record.isPublic,
    variables: record.variables ?? [],
    workspaceId: record.workspaceId,
    userId: record.userId,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
  if (record.description) entry.description = record.description;
  return entry;
}

export function promptSnapshot(
  record: Pick<
    PromptRecord,
    '_id' | 'workspaceId' | 'userId' | 'name' | 'category' | 'contentType' | 'model' | 'isPublic'
  >,
  isDefault: boolean,
): EventData<'prompt.created'> {
  return {
    promptId: record._id,
    workspaceId: record.workspaceId,
    userId: record.userId,
    name: record.name,
    category: record.category,
    contentType: record.contentType,
    model: record.model,
    isPublic: record.isPublic,
    isDefault,
  };
}
