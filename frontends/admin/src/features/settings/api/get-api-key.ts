import { useQuery } from '@tanstack/react-query';
import type { SettingResponse } from '@aict/contracts';
import { apiJson, isApiError, queryKeys } from '@aict/web-kit';

/**
 * GET /api/workspaces/{id}/settings/openai_api_key, or /api/settings/openai_api_key when no
 * workspace is selected. The server returns the key masked ('sk-…wxyz'), value null when
 * unset; a 404 is read as unset too.
 */
export async function getApiKey(workspaceId: number | null): Promise<SettingResponse> {
  try {
    return await apiJson<SettingResponse>('GET', queryKeys.apiKeySetting(workspaceId)[0]);
  } catch (error) {
    if (isApiError(error, 404)) return { key: 'openai_api_key', value: null };
    throw error;
  }
}

export function useApiKey(workspaceId: number | null) {
  return useQuery({
    queryKey: queryKeys.apiKeySetting(workspaceId),
    queryFn: () => getApiKey(workspaceId),
  });
}
