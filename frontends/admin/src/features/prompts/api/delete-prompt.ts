import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@aict/web-kit';
import { promptPath, promptRemoved } from './prompt-cache';

/** DELETE /api/prompts/{id}. */
export async function deletePrompt(id: string): Promise<void> {
  await apiRequest('DELETE', promptPath(id));
}

export function useDeletePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePrompt,
    onSuccess: (_, id) => promptRemoved(queryClient, id),
  });
}
