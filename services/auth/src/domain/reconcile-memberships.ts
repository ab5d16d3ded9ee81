import type { MembershipsSnapshot } from '@aict/contracts';
import type { AuthDeps } from './auth-deps';
import { documentKey } from './keyed-lock';

/**
 * Repairs the memberships read model from its source, the workspace service's snapshot
 * (after a lost queue, a restored database, a service that started late). Every difference
 * is applied as a change made at the moment the snapshot was asked for: a change the
 * events recorded later wins, anything older gives way to the snapshot. Idempotent.
 */
export async function reconcileMemberships(
  deps: Pick<AuthDeps, 'memberships' | 'locks' | 'workspace'>,
): Promise<{ changed: number }> {
  const at = new Date();
  const snapshot: MembershipsSnapshot = await deps.workspace.membershipsSnapshot();
  const recorded = new Map(
    (await deps.memberships.allMemberships()).map((m) => [`${m.workspaceId}:${m.userId}`, m]),
  );
  const wanted = new Map(snapshot.memberships.map((m) => [`${m.workspaceId}:${m.userId}`, m]));

  const changes = [
    ...snapshot.memberships
      .filter((m) => recorded.get(`${m.workspaceId}:${m.userId}`)?.role !== m.role)
      .map((m) => ({ workspaceId: m.workspaceId, userId: m.userId, role: m.role })),
    ...[...recorded.entries()]
      .filter(([key, m]) => m.role !== null && !wanted.has(key))
      .map(([, m]) => ({ workspaceId: m.workspaceId, userId: m.userId, role: null })),
  ];
  for (const change of changes) {
    await deps.locks.run(documentKey('user_roles', change.userId), () =>
      deps.memberships.apply({ ...change, at }),
    );
  }
  return { changed: changes.length };
}
