import type { Router, RequestHandler } from 'express';
import {
  AddMemberBody,
  MemberParams,
  UpdateMemberBody,
  UserIdParams,
  WorkspaceId,
} from '@aict/contracts';
import { contextOf, jsonBody, validate } from '@aict/service-kit';
import { z } from 'zod';
import { addMember } from '../domain/add-member';
import { changeMemberRole } from '../domain/change-member-role';
import type { DomainDeps } from '../domain/domain-deps';
import { listUserMemberships } from '../domain/list-user-memberships';
import { removeMember } from '../domain/remove-member';
import { setIdentityEvents } from '../lib/identity-events';
import { paramsOf } from '../lib/params';
import { presentMembership, presentUserWorkspace } from '../presenters/membership.presenter';

const MemberRouteParams = z.object({ workspaceId: WorkspaceId });

export function memberRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  router.post(
    '/api/workspaces/:workspaceId/users',
    signedIn,
    jsonBody(),
    validate({ body: AddMemberBody }),
    async (req, res) => {
      const { workspaceId } = paramsOf(MemberRouteParams, req);
      const change = await addMember(d, contextOf(req), workspaceId, req.body);
      setIdentityEvents(res, change.events);
      res
        .status(change.before === null ? 201 : 200)
        .json(presentMembership(workspaceId, req.body.userId, req.body.role));
    },
  );

  router.patch(
    '/api/workspaces/:workspaceId/users/:userId',
    signedIn,
    jsonBody(),
    validate({ body: UpdateMemberBody }),
    async (req, res) => {
      const { workspaceId, userId } = paramsOf(MemberParams, req);
      const change = await changeMemberRole(d, contextOf(req), workspaceId, userId, req.body.role);
      setIdentityEvents(res, change.events);
      res.json(presentMembership(workspaceId, userId, req.body.role));
    },
  );

  router.delete('/api/workspaces/:workspaceId/users/:userId', signedIn, async (req, res) => {
    const { workspaceId, userId } = paramsOf(MemberParams, req);
    const change = await removeMember(d, contextOf(req), workspaceId, userId);
    setIdentityEvents(res, change.events);
    res.status(204).end();
  });

  router.get('/api/users/:id/workspaces', signedIn, async (req, res) => {
    const { id } = paramsOf(UserIdParams, req);
    const entries = await listUserMemberships(d, contextOf(req), id);
    res.json(entries.map((e) => presentUserWorkspace(e.workspaceId, id, e.role, e.workspaceName)));
  });
}
