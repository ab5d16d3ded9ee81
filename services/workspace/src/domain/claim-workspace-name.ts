import type { DomainDeps } from './domain-deps';
import { withNameClaimLock } from './locks';
import { workspaceNameTaken } from './workspace.errors';

/**
 * A claim older than this whose workspace does not carry its name is left over by a crash
 * (between the claim and the workspace write, or before an old name was released) and may
 * be taken over. Younger claims belong to a create or rename in progress.
 */
export const STALE_CLAIM_MS = 30_000;

/** Names are unique case-insensitively, with runs of whitespace counting as one space. */
export function nameKeyOf(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Claims `key` for the workspace, or throws 409 WORKSPACE.NAME_TAKEN. */
export async function claimWorkspaceName(
  d: DomainDeps,
  key: string,
  workspaceId: number,
): Promise<void> {
  if (await d.workspaces.claimName(key, workspaceId)) return;
  // A takeover is a conditional update: one at a time (see KeyedLock).
  await withNameClaimLock(d, key, () => takeOverIfStale(d, key, workspaceId));
}

async function takeOverIfStale(d: DomainDeps, key: string, workspaceId: number): Promise<void> {
  const claim = await d.workspaces.readClaim(key);
  if (!claim) {
    // Released in between: one more try.
    if (await d.workspaces.claimName(key, workspaceId)) return;
    throw workspaceNameTaken();
  }
  if (claim.workspaceId === workspaceId) return;
  const holder = await d.workspaces.findById(claim.workspaceId);
  const stale =
    (!holder || holder.nameKey !== key) &&
    Date.now() - new Date(claim.claimedAt).getTime() > STALE_CLAIM_MS;
  if (stale && (await d.workspaces.takeOverClaim(claim, workspaceId))) {
    d.logger.info(
      { workspaceId, staleOwner: claim.workspaceId },
      'stale workspace name claim taken over',
    );
    return;
  }
  throw workspaceNameTaken();
}
