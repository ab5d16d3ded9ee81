import { z } from 'zod';
import { FIELD_LIMITS, MAX_REFERENCE_IMAGES, MODELS_BY_CONTENT_TYPE } from '../constants';
import { EntityId, WorkspaceId } from '../ids';
import { DefaultPrompt, PromptView } from '../entities/prompt';
import {
  Category,
  ContentType,
  integer,
  IsoDateTime,
  optionalText,
  requiredText,
  ResourceUrl,
} from '../primitives';
import { isModelFor } from '../rules';
import { parseTemplate, templateError } from '../template';
import { FILE_RESPONSE, IdParams, WorkspaceQuery, type RouteDef } from './route';

const PromptFields = z.object({
  name: requiredText('Name', FIELD_LIMITS.promptName),
  description: optionalText('Description', FIELD_LIMITS.promptDescription),
  template: requiredText('Template', FIELD_LIMITS.promptTemplate).superRefine((template, ctx) => {
    const error = templateError(template);
    if (error) return ctx.addIssue({ code: 'custom', message: error.message });
    // Every variable becomes an input at generation time, which takes at most this many.
    if (parseTemplate(template).variables.length > FIELD_LIMITS.inputCount) {
      ctx.addIssue({
        code: 'custom',
        message: `A template can have at most ${FIELD_LIMITS.inputCount} variables`,
      });
    }
  }),
  category: Category,
  contentType: ContentType,
  model: requiredText('Model', 64),
  isPublic: z.boolean(),
  isDefault: z.boolean(),
  /** null: no workspace. */
  workspaceId: WorkspaceId.nullish(),
});

/**
 * The model must be one of the content type's models. Checked when both are present and
 * every field is otherwise valid (zod runs object refinements last).
 */
function modelMatchesContentType(prompt: { contentType?: ContentType; model?: string }) {
  return !prompt.contentType || !prompt.model || isModelFor(prompt.contentType, prompt.model);
}

const modelMismatch: z.core.$ZodCustomParams = {
  path: ['model'],
  error: (issue) => {
    const { contentType } = issue.input as { contentType: ContentType };
    return `Model must be one of ${MODELS_BY_CONTENT_TYPE[contentType].join(', ')} for ${contentType} prompts`;
  },
};

export const CreatePromptBody = PromptFields.extend({
  isPublic: PromptFields.shape.isPublic.default(false),
  isDefault: PromptFields.shape.isDefault.default(false),
}).refine(modelMatchesContentType, modelMismatch);
export type CreatePromptBody = z.infer<typeof CreatePromptBody>;

/**
 * Every field optional. A model sent without the content type is checked by the service
 * against the stored one. The reference image fields only keep or remove stored images
 * (null and [] clear them); images are added by uploading.
 */
export const UpdatePromptBody = PromptFields.partial()
  .extend({
    referenceImageUrl: ResourceUrl.nullish(),
    referenceImageUrls: z.array(ResourceUrl).max(MAX_REFERENCE_IMAGES).optional(),
  })
  .refine(modelMatchesContentType, modelMismatch);
export type UpdatePromptBody = z.infer<typeof UpdatePromptBody>;

export const ListPromptsQuery = z.object({
  workspaceId: WorkspaceId,
  contentType: ContentType.optional(),
});
export type ListPromptsQuery = z.infer<typeof ListPromptsQuery>;

export const PromptQuery = z.object({ workspaceId: WorkspaceId.optional() });
export type PromptQuery = z.infer<typeof PromptQuery>;

export const PromptsResponse = z.array(PromptView);
export type PromptsResponse = z.infer<typeof PromptsResponse>;

const ReferenceIndex = integer('Index', 0, MAX_REFERENCE_IMAGES - 1);

/** Text fields of the reference image upload; without index the image is appended. */
export const ReferenceImageFields = z.object({ index: ReferenceIndex.optional() });
export type ReferenceImageFields = z.infer<typeof ReferenceImageFields>;

export const ReferenceImageParams = z.object({ id: EntityId, index: ReferenceIndex });
export type ReferenceImageParams = z.infer<typeof ReferenceImageParams>;

/** A stored reference image: by its position (`0`…) or by its image id. */
export const StoredReferenceImageParams = z.object({
  id: EntityId,
  n: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Image id must be 1–64 letters, digits, _ or -'),
});
export type StoredReferenceImageParams = z.infer<typeof StoredReferenceImageParams>;

/** One stored version of a prompt's editable fields (issue 18), newest first in the list. */
export const PromptVersion = z.object({
  /** 1, 2, …: grows with every write of the prompt (numbers of other writes are skipped). */
  version: z.number().int().positive(),
  /** The user whose write made this version (null: not recorded). */
  editedBy: z.string().nullable(),
  editedAt: IsoDateTime,
  name: z.string(),
  description: z.string().optional(),
  template: z.string(),
  category: Category,
  contentType: ContentType,
  model: z.string(),
});
export type PromptVersion = z.infer<typeof PromptVersion>;

/** The versions still kept (older ones fall to retention), newest first; `current` first. */
export const PromptVersionsResponse = z.object({
  current: z.number().int().positive(),
  versions: z.array(PromptVersion),
});
export type PromptVersionsResponse = z.infer<typeof PromptVersionsResponse>;

export const PromptVersionParams = z.object({
  id: EntityId,
  version: integer('Version', 1, 1_000_000_000),
});
export type PromptVersionParams = z.infer<typeof PromptVersionParams>;

/**
 * `currentVersion`: the version the caller saw as current; when the prompt moved on since,
 * the restore is refused (409) instead of silently replacing the newer edit.
 */
export const RestorePromptVersionBody = z.object({
  workspaceId: WorkspaceId.nullish(),
  currentVersion: integer('Current version', 1, 1_000_000_000).optional(),
});
export type RestorePromptVersionBody = z.infer<typeof RestorePromptVersionBody>;

export const PROMPT_ROUTES = {
  /**
   * Summaries for every caller (no template, no reference images): the list is served from
   * a per-workspace summary document. The detail route gives admins the full prompt.
   */
  list: {
    method: 'GET',
    path: '/api/prompts',
    service: 'prompt',
    access: 'member',
    query: ListPromptsQuery,
    response: PromptsResponse,
  },
  /** 404 PROMPT.DEFAULT_NOT_FOUND when the workspace has none. */
  getDefault: {
    method: 'GET',
    path: '/api/prompts/default',
    service: 'prompt',
    access: 'member',
    query: WorkspaceQuery,
    response: DefaultPrompt,
  },
  get: {
    method: 'GET',
    path: '/api/prompts/:id',
    service: 'prompt',
    access: 'signed-in',
    params: IdParams,
    query: PromptQuery,
    response: PromptView,
  },
  create: {
    method: 'POST',
    path: '/api/prompts',
    service: 'prompt',
    access: 'signed-in',
    query: PromptQuery,
    status: 201,
    body: CreatePromptBody,
    response: PromptView,
  },
  update: {
    method: 'PUT',
    path: '/api/prompts/:id',
    service: 'prompt',
    access: 'signed-in',
    query: PromptQuery,
    params: IdParams,
    body: UpdatePromptBody,
    response: PromptView,
  },
  remove: {
    method: 'DELETE',
    path: '/api/prompts/:id',
    service: 'prompt',
    access: 'signed-in',
    query: PromptQuery,
    params: IdParams,
    response: null,
  },
  /** Admins of the prompt's workspace and super admins (issue 18); others 403. */
  versions: {
    method: 'GET',
    path: '/api/prompts/:id/versions',
    service: 'prompt',
    access: 'signed-in',
    params: IdParams,
    query: PromptQuery,
    response: PromptVersionsResponse,
  },
  /**
   * Writes a NEW version holding the old version's editable fields (history is never
   * rewritten). 404 PROMPT.VERSION_NOT_FOUND for a version not kept; 409 PROMPT.CONFLICT
   * when the prompt changed meanwhile.
   */
  restoreVersion: {
    method: 'POST',
    path: '/api/prompts/:id/versions/:version/restore',
    service: 'prompt',
    access: 'signed-in',
    params: PromptVersionParams,
    body: RestorePromptVersionBody,
    response: PromptView,
  },
  /** Sent with x-workspace-id. */
  uploadReferenceImage: {
    method: 'POST',
    path: '/api/prompts/:id/reference-image',
    service: 'prompt',
    access: 'signed-in',
    query: PromptQuery,
    params: IdParams,
    body: ReferenceImageFields,
    upload: { field: 'reference', maxFiles: 1 },
    /** The full prompt for admins; the summary for an owner who is not an admin. */
    response: PromptView,
  },
  /** Sent with x-workspace-id. */
  removeReferenceImage: {
    method: 'DELETE',
    path: '/api/prompts/:id/reference-image/:index',
    service: 'prompt',
    access: 'signed-in',
    query: PromptQuery,
    params: ReferenceImageParams,
    response: PromptView,
  },
  /** The image's bytes; by image id cached for good. Sent with x-workspace-id. */
  referenceImage: {
    method: 'GET',
    path: '/api/prompts/:id/reference-images/:n',
    service: 'prompt',
    access: 'signed-in',
    params: StoredReferenceImageParams,
    query: PromptQuery,
    response: FILE_RESPONSE,
  },
} as const satisfies Record<string, RouteDef>;
