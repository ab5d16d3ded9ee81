import { USER_ROUTES, WORKSPACE_ROUTES } from '@aict/contracts';
import { RESPONDED, type MountRoute } from '@aict/service-kit';
import { addMember } from '../domain/add-member';
import { changeMemberRole } from '../domain/change-member-role';
import type { DomainDeps } from '../domain/domain-deps';
import { listUserMemberships } from '../domain/list-user-memberships';
import { removeMember } from '../domain/remove-member';
import { setIdentityEvents } from '../lib/identity-events';
import { presentMembership, presentUserWorkspace } from '../presenters/membership.presenter';

export function memberRoutes(mount: MountRoute, d: DomainDeps): void {
  mount(WORKSPACE_ROUTES.addMember, async ({ ctx, res, body, workspaceId }) => {
    const change = await addMember(d, ctx, workspaceId!, body);
    setIdentityEvents(res, change.events);
    // 201 when the user joins; 200 when they were a member already (the role is set).
    res
      .status(change.before === null ? 201 : 200)
      .json(presentMembership(workspaceId!, body.userId, body.role));
    return RESPONDED;
  });

  mount(WORKSPACE_ROUTES.updateMember, async ({ ctx, res, params, body, workspaceId }) => {
    const change = await changeMemberRole(d, ctx, workspaceId!, params.userId, body.role);
    setIdentityEvents(res, change.events);
    return presentMembership(workspaceId!, params.userId, body.role);
  });

  mount(WORKSPACE_ROUTES.removeMember, async ({ ctx, res, params, workspaceId }) => {
    const change = await removeMember(d, ctx, workspaceId!, params.userId);
    setIdentityEvents(res, change.events);
  });

  mount(USER_ROUTES.workspaces, async ({ ctx, params, workspaceId }) => {
    const entries = await listUserMemberships(d, ctx, params.id, workspaceId);
    return entries.map((e) =>
      presentUserWorkspace(e.workspaceId, params.id, e.role, e.workspaceName),
    );
  });
}
