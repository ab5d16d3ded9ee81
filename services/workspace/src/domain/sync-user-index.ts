import type { DomainDeps } from './domain-deps';

/**
 * Makes a user's index entry for a workspace agree with the membership (the source): the
 * repair run for every `membership.changed` this service published, so an index left behind
 * by a crash between the two writes catches up. Reads the source, so the order in which
 * events arrive does not matter; an entry is never replaced by an older one.
 */
export async function syncUserIndex(
  d: DomainDeps,
  workspaceId: number,
  userId: string,
): Promise<void> {
  const [membership, workspace] = await Promise.all([
    d.memberships.get(workspaceId, userId),
    d.workspaces.findById(workspaceId),
  ]);
  if (!membership || !workspace) {
    await d.memberships.removeFromIndex(userId, workspaceId);
    return;
  }
  await d.memberships.applyToIndex(userId, workspaceId, {
    role: membership.role,
    rev: membership.rev,
  });
}
