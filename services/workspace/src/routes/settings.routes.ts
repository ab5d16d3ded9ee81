import { SETTINGS_ROUTES as S } from '@aict/contracts';
import type { MountRoute } from '@aict/service-kit';
import { getDefaultModel, listModels, putDefaultModel } from '../domain/default-models';
import type { DomainDeps } from '../domain/domain-deps';
import {
  deleteApiKey,
  deleteBaseUrl,
  getApiKey,
  getBaseUrl,
  putApiKey,
  putBaseUrl,
} from '../domain/provider-settings';
import { testProviderConnection } from '../domain/test-provider-connection';
import { presentSecret, presentSetting } from '../presenters/setting.presenter';

export function settingsRoutes(mount: MountRoute, d: DomainDeps): void {
  // The provider key and base URL, per workspace (its admins: the path's, `params.id`) and
  // global (super admins: scope null, whatever workspace is in view).
  mount(S.getWorkspaceApiKey, async ({ ctx, params }) =>
    presentSecret(await getApiKey(d, ctx, params.id)),
  );
  mount(S.putWorkspaceApiKey, async ({ ctx, params, body }) =>
    presentSecret(await putApiKey(d, ctx, params.id, body.value)),
  );
  mount(S.deleteWorkspaceApiKey, ({ ctx, params }) => deleteApiKey(d, ctx, params.id));
  mount(S.getGlobalApiKey, async ({ ctx }) => presentSecret(await getApiKey(d, ctx, null)));
  mount(S.putGlobalApiKey, async ({ ctx, body }) =>
    presentSecret(await putApiKey(d, ctx, null, body.value)),
  );
  mount(S.deleteGlobalApiKey, ({ ctx }) => deleteApiKey(d, ctx, null));

  mount(S.getWorkspaceBaseUrl, async ({ ctx, params }) =>
    presentSetting(await getBaseUrl(d, ctx, params.id)),
  );
  mount(S.putWorkspaceBaseUrl, async ({ ctx, params, body }) =>
    presentSetting(await putBaseUrl(d, ctx, params.id, body.value)),
  );
  mount(S.deleteWorkspaceBaseUrl, ({ ctx, params }) => deleteBaseUrl(d, ctx, params.id));
  mount(S.getGlobalBaseUrl, async ({ ctx }) => presentSetting(await getBaseUrl(d, ctx, null)));
  mount(S.putGlobalBaseUrl, async ({ ctx, body }) =>
    presentSetting(await putBaseUrl(d, ctx, null, body.value)),
  );
  mount(S.deleteGlobalBaseUrl, ({ ctx }) => deleteBaseUrl(d, ctx, null));

  // Default models: the workspace in view's (X-Workspace-ID), else the global ones.
  mount(S.getDefaultTextModel, async ({ ctx, workspaceId }) =>
    presentSetting(await getDefaultModel(d, ctx, 'text', workspaceId)),
  );
  mount(S.putDefaultTextModel, async ({ ctx, body, workspaceId }) =>
    presentSetting(await putDefaultModel(d, ctx, 'text', workspaceId, body.value)),
  );
  mount(S.getDefaultImageModel, async ({ ctx, workspaceId }) =>
    presentSetting(await getDefaultModel(d, ctx, 'image', workspaceId)),
  );
  mount(S.putDefaultImageModel, async ({ ctx, body, workspaceId }) =>
    presentSetting(await putDefaultModel(d, ctx, 'image', workspaceId, body.value)),
  );
  mount(S.textModels, () => listModels('text'));
  mount(S.imageModels, () => listModels('image'));

  // The workspace the body names (authorised by the mount), else the global key: a workspace
  // in view (X-Workspace-ID) does not choose the key tested.
  mount(S.testConnection, ({ ctx, body }) =>
    testProviderConnection(d, ctx, body.workspaceId ?? null),
  );
}
