import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WorkspaceLogoResponse } from '@aict/contracts';
import { apiJson, queryKeys } from '@aict/web-kit';

/** POST /api/workspaces/{id}/logo, multipart with the file in the field `logo`. */
export function uploadWorkspaceLogo({
  workspaceId,
  file,
}: {
  workspaceId: number;
  file: File;
}): Promise<WorkspaceLogoResponse> {
  const form = new FormData();
  form.append('logo', file);
  return apiJson<WorkspaceLogoResponse>(
    'POST',
    `/api/workspaces/${encodeURIComponent(String(workspaceId))}/logo`,
    form,
  );
}

export function useUploadWorkspaceLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadWorkspaceLogo,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.workspaces() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.userWorkspaces() }),
      ]),
  });
}
