import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PromptView } from '@aict/contracts';
import { WORKSPACE_HEADER } from '@aict/contracts/constants';
import { apiJson } from '@aict/web-kit';
import { promptChanged, promptPath } from './prompt-cache';

export interface RemoveReferenceInput {
  id: string;
  index: number;
  workspaceId: number | null;
}

/**
 * DELETE /api/prompts/{id}/reference-image/{index}, header x-workspace-id; answers the
 * updated prompt.
 */
export function removeReferenceImage({
  id,
  index,
  workspaceId,
}: RemoveReferenceInput): Promise<PromptView> {
  return apiJson<PromptView>('DELETE', promptPath(id, `/reference-image/${index}`), undefined, {
    headers: workspaceId ? { [WORKSPACE_HEADER]: String(workspaceId) } : {},
  });
}

export function useRemoveReferenceImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeReferenceImage,
    onSuccess: (prompt) => promptChanged(queryClient, prompt),
  });
}
