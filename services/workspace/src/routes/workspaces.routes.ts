import type { Router, RequestHandler } from 'express';
import { CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceParams } from '@aict/contracts';
import { contextOf, jsonBody, validate } from '@aict/service-kit';
import { createWorkspace } from '../domain/create-workspace';
import { deleteWorkspace } from '../domain/delete-workspace';
import type { DomainDeps } from '../domain/domain-deps';
import { listAllWorkspaces, listMyWorkspaces } from '../domain/list-workspaces';
import { updateWorkspace } from '../domain/update-workspace';
import { setIdentityEvents } from '../lib/identity-events';
import { paramsOf } from '../lib/params';
import { presentWorkspace } from '../presenters/workspace.presenter';

export function workspaceRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  router.get('/api/user/workspaces', signedIn, async (req, res) => {
    const workspaces = await listMyWorkspaces(d, contextOf(req));
    res.json(workspaces.map(presentWorkspace));
  });

  router.get('/api/workspaces', signedIn, async (req, res) => {
    const workspaces = await listAllWorkspaces(d, contextOf(req));
    res.json(workspaces.map(presentWorkspace));
  });

  router.post(
    '/api/workspaces',
    signedIn,
    jsonBody(),
    validate({ body: CreateWorkspaceBody }),
    async (req, res) => {
      const workspace = await createWorkspace(d, contextOf(req), req.body);
      res.status(201).json(presentWorkspace(workspace));
    },
  );

  router.patch(
    '/api/workspaces/:id',
    signedIn,
    jsonBody(),
    validate({ body: UpdateWorkspaceBody }),
    async (req, res) => {
      const { id } = paramsOf(WorkspaceParams, req);
      const workspace = await updateWorkspace(d, contextOf(req), id, req.body);
      res.json(presentWorkspace(workspace));
    },
  );

  router.delete('/api/workspaces/:id', signedIn, async (req, res) => {
    const { id } = paramsOf(WorkspaceParams, req);
    const events = await deleteWorkspace(d, contextOf(req), id);
    setIdentityEvents(res, events);
    res.status(204).end();
  });
}
