import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContentType, SettingResponse } from '@aict/contracts';
import { apiJson, queryKeys } from '@aict/web-kit';

export interface UpdateDefaultModelInput {
  contentType: ContentType;
  value: string;
}

/** PUT /api/settings/default_text_model or /api/settings/default_image_model with { value }. */
export function updateDefaultModel({
  contentType,
  value,
}: UpdateDefaultModelInput): Promise<SettingResponse> {
  return apiJson<SettingResponse>('PUT', queryKeys.defaultModelSetting(contentType)[0], { value });
}

export function useUpdateDefaultModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDefaultModel,
    onSuccess: (setting, { contentType, value }) =>
      queryClient.setQueryData(queryKeys.defaultModelSetting(contentType), setting?.value ?? value),
  });
}
