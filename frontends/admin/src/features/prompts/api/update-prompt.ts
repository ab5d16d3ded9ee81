import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PromptView, UpdatePromptBody } from '@aict/contracts';
import { apiJson } from '@aict/web-kit';
import { promptChanged, promptPath } from './prompt-cache';

export interface UpdatePromptInput {
  id: string;
  body: UpdatePromptBody;
}

/**
 * PUT /api/prompts/{id}: the form fields plus workspaceId (null if none). The same route
 * with `referenceImageUrl: null, referenceImageUrls: []` removes every reference image.
 */
export function updatePrompt({ id, body }: UpdatePromptInput): Promise<PromptView> {
  return apiJson<PromptView>('PUT', promptPath(id), body);
}

export function useUpdatePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePrompt,
    onSuccess: (prompt) => promptChanged(queryClient, prompt),
  });
}

/** 'Remove All' of the Reference Image card. */
export function clearReferenceImages(id: string, workspaceId: number | null) {
  return updatePrompt({
    id,
    body: { referenceImageUrl: null, referenceImageUrls: [], workspaceId },
  });
}

export function useClearReferenceImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, workspaceId }: { id: string; workspaceId: number | null }) =>
      clearReferenceImages(id, workspaceId),
    onSuccess: (prompt) => promptChanged(queryClient, prompt),
  });
}
