import { USER_ROUTES } from '@aict/contracts';
import type { MountRoute } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { createUser } from '../domain/create-user';
import { deleteUser } from '../domain/delete-user';
import { listUsers } from '../domain/list-users';
import { resetPassword } from '../domain/reset-password';
import { updateUser } from '../domain/update-user';
import { setIdentityEvents } from '../http/identity-events';
import { presentUser } from '../presenters/user.presenter';

/**
 * SPEC §7 Users (`GET /api/users/:id/workspaces` is the workspace service's): the mount lets
 * only administrators through; the use cases decide whom they may manage.
 */
export function userRoutes(mount: MountRoute, deps: AuthDeps): void {
  mount(USER_ROUTES.list, async ({ res, ctx }) => {
    const users = await listUsers(deps, ctx);
    res.set('cache-control', 'no-store');
    return users.map((u) => presentUser(u.user, u.roles));
  });

  mount(USER_ROUTES.create, async ({ res, ctx, body }) => {
    const { user, roles, events } = await createUser(deps, ctx, body);
    setIdentityEvents(res, events);
    return presentUser(user, roles);
  });

  mount(USER_ROUTES.update, async ({ res, ctx, params, body }) => {
    const { user, roles, events } = await updateUser(deps, ctx, params.id, body);
    setIdentityEvents(res, events);
    return presentUser(user, roles);
  });

  mount(USER_ROUTES.remove, async ({ res, ctx, params }) => {
    setIdentityEvents(res, await deleteUser(deps, ctx, params.id));
  });

  mount(USER_ROUTES.resetPassword, async ({ res, ctx, params, body }) => {
    setIdentityEvents(res, await resetPassword(deps, ctx, params.id, body.password));
  });
}
