import type { Router, RequestHandler } from 'express';
import {
  ApiKeyBody,
  BaseUrlBody,
  DefaultImageModelBody,
  DefaultTextModelBody,
  TestConnectionBody,
  WorkspaceParams,
} from '@aict/contracts';
import { contextOf, jsonBody, validate } from '@aict/service-kit';
import { z } from 'zod';
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
import { paramsOf } from '../lib/params';
import { presentSecret, presentSetting } from '../presenters/setting.presenter';

/** The body is optional (no body: the global key). */
const OptionalTestConnectionBody = z.preprocess((body) => body ?? {}, TestConnectionBody);

export function settingsRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  // The provider key and base URL, per workspace (its admins) and global (super admins).
  const scoped = [
    {
      key: 'openai_api_key',
      get: getApiKey,
      put: putApiKey,
      remove: deleteApiKey,
      body: ApiKeyBody,
      present: presentSecret,
    },
    {
      key: 'openai_base_url',
      get: getBaseUrl,
      put: putBaseUrl,
      remove: deleteBaseUrl,
      body: BaseUrlBody,
      present: presentSetting,
    },
  ] as const;

  for (const setting of scoped) {
    const workspacePath = `/api/workspaces/:id/settings/${setting.key}`;
    const globalPath = `/api/settings/${setting.key}`;

    router.get(workspacePath, signedIn, async (req, res) => {
      const { id } = paramsOf(WorkspaceParams, req);
      res.json(setting.present(await setting.get(d, contextOf(req), id)));
    });
    router.put(
      workspacePath,
      signedIn,
      jsonBody(),
      validate({ body: setting.body }),
      async (req, res) => {
        const { id } = paramsOf(WorkspaceParams, req);
        res.json(setting.present(await setting.put(d, contextOf(req), id, req.body.value)));
      },
    );
    router.delete(workspacePath, signedIn, async (req, res) => {
      const { id } = paramsOf(WorkspaceParams, req);
      await setting.remove(d, contextOf(req), id);
      res.status(204).end();
    });

    router.get(globalPath, signedIn, async (req, res) => {
      res.json(setting.present(await setting.get(d, contextOf(req), null)));
    });
    router.put(
      globalPath,
      signedIn,
      jsonBody(),
      validate({ body: setting.body }),
      async (req, res) => {
        res.json(setting.present(await setting.put(d, contextOf(req), null, req.body.value)));
      },
    );
    router.delete(globalPath, signedIn, async (req, res) => {
      await setting.remove(d, contextOf(req), null);
      res.status(204).end();
    });
  }

  // Default models: the current workspace's (X-Workspace-ID), else the global ones.
  const models = [
    { kind: 'text', path: '/api/settings/default_text_model', body: DefaultTextModelBody },
    { kind: 'image', path: '/api/settings/default_image_model', body: DefaultImageModelBody },
  ] as const;

  for (const model of models) {
    router.get(model.path, signedIn, async (req, res) => {
      res.json(presentSetting(await getDefaultModel(d, contextOf(req), model.kind)));
    });
    router.put(
      model.path,
      signedIn,
      jsonBody(),
      validate({ body: model.body }),
      async (req, res) => {
        const setting = await putDefaultModel(d, contextOf(req), model.kind, req.body.value);
        res.json(presentSetting(setting));
      },
    );
    router.get(`/api/models/${model.kind}`, signedIn, (_req, res) => {
      res.json(listModels(model.kind));
    });
  }

  router.post(
    '/api/test-openai-connection',
    signedIn,
    jsonBody(),
    validate({ body: OptionalTestConnectionBody }),
    async (req, res) => {
      const result = await testProviderConnection(d, contextOf(req), req.body.workspaceId ?? null);
      res.json(result);
    },
  );
}
