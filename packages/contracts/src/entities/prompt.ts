import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { Category, ContentType, IsoDateTime, ResourceUrl } from '../primitives';

/**
 * A prompt as a non-admin sees it: no template, no reference images. `variables` are the
 * template's variable names (parseTemplate), including the special `file` and `language`.
 * Optional fields are absent when unset, never null.
 */
export const PromptSummary = z.object({
  id: EntityId,
  name: z.string(),
  description: z.string().optional(),
  category: Category,
  contentType: ContentType,
  model: z.string(),
  isPublic: z.boolean(),
  isDefault: z.boolean(),
  variables: z.array(z.string()),
  /** Absent (with userId) for a published prompt seen from another workspace. */
  workspaceId: WorkspaceId.optional(),
  /** The author: absent unless the viewer is in the prompt's workspace, its author or a super admin. */
  userId: EntityId.optional(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type PromptSummary = z.infer<typeof PromptSummary>;

/** A prompt as an admin sees it (every field of SPEC §3, plus `variables`). */
export const Prompt = PromptSummary.extend({
  template: z.string(),
  referenceImageUrl: ResourceUrl.optional(),
  referenceImageUrls: z.array(ResourceUrl),
});
export type Prompt = z.infer<typeof Prompt>;

/** What a prompt call returns: the full prompt for admins, the summary otherwise. */
export const PromptView = z.union([Prompt, PromptSummary]);
export type PromptView = z.infer<typeof PromptView>;

export function isFullPrompt(prompt: PromptView): prompt is Prompt {
  return 'template' in prompt;
}

/** The workspace's default prompt, as the chat needs it. */
export const DefaultPrompt = z.object({ id: EntityId, model: z.string() });
export type DefaultPrompt = z.infer<typeof DefaultPrompt>;
