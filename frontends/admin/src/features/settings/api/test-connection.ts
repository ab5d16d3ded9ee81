import { useMutation } from '@tanstack/react-query';
import type { TestConnectionResponse } from '@aict/contracts';
import { apiJson } from '@aict/web-kit';

/**
 * POST /api/test-openai-connection: the server tries the key that applies to the workspace
 * (its own, else the global one), or the global key when workspaceId is null.
 */
export function testConnection(workspaceId: number | null): Promise<TestConnectionResponse> {
  return apiJson<TestConnectionResponse>('POST', '/api/test-openai-connection', { workspaceId });
}

export function useTestConnection() {
  return useMutation({ mutationFn: testConnection });
}
