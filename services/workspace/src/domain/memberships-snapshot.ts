import type { Role } from '@aict/contracts';
import type { DomainDeps } from './domain-deps';

/** Every current membership, for a gateway starting up (`workspace.memberships-snapshot`). */
export async function membershipsSnapshot(
  d: DomainDeps,
): Promise<Array<{ workspaceId: number; userId: string; role: Role }>> {
  const memberships = await d.memberships.listActive();
  return memberships.map((m) => ({ workspaceId: m.workspaceId, userId: m.userId, role: m.role! }));
}
