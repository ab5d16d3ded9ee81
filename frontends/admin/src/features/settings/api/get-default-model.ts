import { useQuery } from '@tanstack/react-query';
import type { ContentType, SettingResponse } from '@aict/contracts';
import { apiJson, isApiError, queryKeys } from '@aict/web-kit';

/**
 * GET /api/settings/default_text_model or /api/settings/default_image_model; value null (or a
 * 404) when unset, and the product default applies.
 */
export async function getDefaultModel(contentType: ContentType): Promise<string | null> {
  try {
    const setting = await apiJson<SettingResponse>(
      'GET',
      queryKeys.defaultModelSetting(contentType)[0],
    );
    return setting?.value ?? null;
  } catch (error) {
    if (isApiError(error, 404)) return null;
    throw error;
  }
}

export function useDefaultModel(contentType: ContentType) {
  return useQuery({
    queryKey: queryKeys.defaultModelSetting(contentType),
    queryFn: () => getDefaultModel(contentType),
  });
}
