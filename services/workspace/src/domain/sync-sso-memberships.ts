import type { Role } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { assignMember } from './add-member';
import { nameKeyOf } from './claim-workspace-name';
import type { DomainDeps } from './domain-deps';
import { setRoleKeepingAnAdmin } from './member-rules';

export interface SsoGrant {
  workspaceName: string;
  role: Role;
}

export interface SsoSyncResult {
  memberships: { workspaceId: number; role: Role }[];
  /** Names granted that no workspace carries. */
  unknown: string[];
  /** Workspaces whose last admin the claim no longer names (kept, not removed). */
  kept: number[];
  events: Envelope[];
}

/**
 * Single sign-on (the `workspace.sync-sso-memberships` request, authorised by the auth
 * service): the user's memberships become those the provider's claim grants. Names resolve
 * through their claims (reads by `_id`); a name granted twice keeps its highest role.
 */
export async function syncSsoMemberships(
  d: DomainDeps,
  userId: string,
  grants: readonly SsoGrant[],
): Promise<SsoSyncResult> {
  const wanted = new Map<number, Role>();
  const unknown: string[] = [];
  for (const grant of grants) {
    const workspaceId = await workspaceIdByName(d, grant.workspaceName);
    if (workspaceId === null) {
      unknown.push(grant.workspaceName);
      continue;
    }
    if (wanted.get(workspaceId) !== 'admin') wanted.set(workspaceId, grant.role);
  }

  const events: Envelope[] = [];
  const kept: number[] = [];
  const index = await d.memberships.readIndex(userId);
  for (const [id, entry] of Object.entries(index?.ws ?? {})) {
    const workspaceId = Number(id);
    if (!entry.role || wanted.has(workspaceId)) continue;
    try {
      events.push(...(await setRoleKeepingAnAdmin(d, workspaceId, userId, null)).events);
    } catch (err) {
      d.logger.warn({ err, workspaceId, userId }, 'single sign-on: membership kept');
      kept.push(workspaceId);
    }
  }
  for (const [workspaceId, role] of wanted) {
    try {
      events.push(...(await assignMember(d, workspaceId, userId, role)).events);
    } catch (err) {
      // The last admin of a workspace demoted by the claim stays admin.
      d.logger.warn({ err, workspaceId, userId }, 'single sign-on: role not changed');
      kept.push(workspaceId);
    }
  }

  const after = await d.memberships.readIndex(userId);
  const memberships = Object.entries(after?.ws ?? {}).flatMap(([id, entry]) =>
    entry.role ? [{ workspaceId: Number(id), role: entry.role }] : [],
  );
  return { memberships, unknown, kept, events };
}

/** The workspace carrying `name` now, or null. */
async function workspaceIdByName(d: DomainDeps, name: string): Promise<number | null> {
  const key = nameKeyOf(name);
  const claim = await d.workspaces.readClaim(key);
  if (!claim) return null;
  const workspace = await d.workspaces.findById(claim.workspaceId);
  return workspace && workspace.nameKey === key ? workspace._id : null;
}
