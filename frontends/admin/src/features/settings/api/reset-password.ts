import { useMutation } from '@tanstack/react-query';
import { ResetPasswordBody } from '@aict/contracts';
import { apiRequest } from '@aict/web-kit';

export { ResetPasswordBody };

/** POST /api/users/{id}/reset-password with { password }. */
export async function resetPassword({
  id,
  password,
}: ResetPasswordBody & { id: string }): Promise<void> {
  await apiRequest('POST', `/api/users/${encodeURIComponent(id)}/reset-password`, { password });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
