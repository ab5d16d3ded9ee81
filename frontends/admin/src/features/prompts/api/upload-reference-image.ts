import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PromptView } from '@aict/contracts';
import { WORKSPACE_HEADER } from '@aict/contracts/constants';
import { apiJson } from '@aict/web-kit';
import { promptChanged, promptPath } from './prompt-cache';

export interface UploadReferenceInput {
  id: string;
  file: File;
  /** The slot to fill (the number of images already stored: the new one is appended). */
  index: number;
  workspaceId: number | null;
}

/**
 * POST /api/prompts/{id}/reference-image: multipart with the image in `reference` and its
 * `index`, header x-workspace-id; answers the prompt with its reference image URLs.
 */
export function uploadReferenceImage({
  id,
  file,
  index,
  workspaceId,
}: UploadReferenceInput): Promise<PromptView> {
  const form = new FormData();
  form.append('reference', file);
  form.append('index', String(index));
  return apiJson<PromptView>('POST', promptPath(id, '/reference-image'), form, {
    headers: workspaceId ? { [WORKSPACE_HEADER]: String(workspaceId) } : {},
  });
}

export function useUploadReferenceImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadReferenceImage,
    onSuccess: (prompt) => promptChanged(queryClient, prompt),
  });
}
