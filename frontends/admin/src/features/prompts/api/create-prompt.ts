import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatePromptBody, PromptView } from '@aict/contracts';
import { apiJson } from '@aict/web-kit';
import { promptChanged } from './prompt-cache';

/** POST /api/prompts: the form fields plus workspaceId; answers the created prompt. */
export function createPrompt(body: CreatePromptBody): Promise<PromptView> {
  return apiJson<PromptView>('POST', '/api/prompts', body);
}

export function useCreatePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPrompt,
    onSuccess: (prompt) => promptChanged(queryClient, prompt),
  });
}
