import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiKeyBody, type SettingResponse } from '@aict/contracts';
import { apiJson, queryKeys } from '@aict/web-kit';

export { ApiKeyBody };

export interface UpdateApiKeyInput {
  /** null: the global key. */
  workspaceId: number | null;
  value: string;
}

/** PUT …/settings/openai_api_key with { value }; the answer carries the key masked. */
export function updateApiKey({ workspaceId, value }: UpdateApiKeyInput): Promise<SettingResponse> {
  return apiJson<SettingResponse>('PUT', queryKeys.apiKeySetting(workspaceId)[0], { value });
}

export function useUpdateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApiKey,
    onSuccess: () =>
      // the global key is the fallback of every workspace: refresh all the key settings
      queryClient.invalidateQueries({
        predicate: (query) => String(query.queryKey[0]).endsWith('/settings/openai_api_key'),
      }),
  });
}
