import { useQuery } from '@tanstack/react-query';
import type { ContentType, ModelsResponse } from '@aict/contracts';
import { apiJson, queryKeys } from '@aict/web-kit';

/** GET /api/models/text or /api/models/image: the model names offered. */
export function getModels(contentType: ContentType): Promise<ModelsResponse> {
  return apiJson<ModelsResponse>('GET', queryKeys.models(contentType)[0]);
}

export function useModels(contentType: ContentType) {
  return useQuery({
    queryKey: queryKeys.models(contentType),
    queryFn: () => getModels(contentType),
  });
}
