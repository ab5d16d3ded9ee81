import { WORKSPACE_ROUTES } from '@aict/contracts';
import type { MountRoute } from '@aict/service-kit';
import { createWorkspace } from '../domain/create-workspace';
import { deleteWorkspace } from '../domain/delete-workspace';
import type { DomainDeps } from '../domain/domain-deps';
import { listAllWorkspaces, listMyWorkspaces } from '../domain/list-workspaces';
import { updateWorkspace } from '../domain/update-workspace';
import { setIdentityEvents } from '../lib/identity-events';
import { presentWorkspace } from '../presenters/workspace.presenter';

export function workspaceRoutes(mount: MountRoute, d: DomainDeps): void {
  mount(WORKSPACE_ROUTES.mine, async ({ ctx }) =>
    (await listMyWorkspaces(d, ctx)).map(presentWorkspace),
  );

  mount(WORKSPACE_ROUTES.list, async ({ ctx }) =>
    (await listAllWorkspaces(d, ctx)).map(presentWorkspace),
  );

  mount(WORKSPACE_ROUTES.create, async ({ ctx, body }) =>
    presentWorkspace(await createWorkspace(d, ctx, body)),
  );

  mount(WORKSPACE_ROUTES.update, async ({ ctx, body, workspaceId }) =>
    presentWorkspace(await updateWorkspace(d, ctx, workspaceId!, body)),
  );

  mount(WORKSPACE_ROUTES.remove, async ({ ctx, res, workspaceId }) => {
    setIdentityEvents(res, await deleteWorkspace(d, ctx, workspaceId!));
  });
}
