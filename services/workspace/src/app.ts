import { Router } from 'express';
import {
  createHttpApp,
  createLockedOutbox,
  createOutboxRelay,
  KeyedLock,
  createProcessedStore,
  routeMounter,
  startOrphanSweep,
  type ServiceDeps,
} from '@aict/service-kit';
import type { Config } from './config';
import { isLogoReferenced } from './domain/logo-objects';
import { membershipModels } from './data/membership.model';
import { createMembershipRepository } from './data/membership.repository';
import { settingModel } from './data/setting.model';
import { createSettingRepository } from './data/setting.repository';
import { workspaceModels } from './data/workspace.model';
import { createWorkspaceRepository } from './data/workspace.repository';
import type { DomainDeps } from './domain/domain-deps';
import { ensureDefaultWorkspace } from './domain/ensure-default-workspace';
import { subscribeOwnEvents } from './events/own-events.consumer';
import { subscribeUserDeleted } from './events/user-deleted.consumer';
import { createProviderFetch } from '@aict/service-kit';
import { createSecretBox } from './lib/secret-box';
import { brandVoiceRoutes } from './routes/brand-voice.routes';
import { logoRoutes } from './routes/logo.routes';
import { memberRoutes } from './routes/members.routes';
import { settingsRoutes } from './routes/settings.routes';
import { workspaceRoutes } from './routes/workspaces.routes';
import { serveRequests } from './rpc/workspace.rpc';

export interface AppDeps extends ServiceDeps {
  config: Readonly<Config>;
}

/**
 * The workspace service: workspaces, memberships, settings, models, logos and the provider
 * connection test over HTTP; the memberships snapshot, provider config and add-member
 * requests over RabbitMQ; `user.deleted` consumed; its own events published by the outbox.
 */
export async function createApp(deps: AppDeps) {
  const { config, logger, mongo, storage, bus, readiness, onStop } = deps;
  if (!mongo || !storage || !bus)
    throw new Error('the workspace service needs MongoDB, MinIO and RabbitMQ');

  const models = {
    ...workspaceModels(mongo),
    ...membershipModels(mongo),
    Setting: settingModel(mongo),
  };
  const locks = new KeyedLock();
  const outbox = createLockedOutbox(
    createOutboxRelay({ bus, logger, fullSweepMs: config.OUTBOX_SWEEP_MS }),
    locks,
    logger,
  );
  const providerFetch = createProviderFetch({
    allowedOrigins: config.PROVIDER_URL_ALLOWED_ORIGINS,
  });
  const trustedProviderFetch = createProviderFetch({ allowedOrigins: 'any' });
  const d: DomainDeps = {
    config,
    logger,
    bus,
    outbox,
    locks,
    storage,
    secrets: createSecretBox({
      current: { id: config.SETTINGS_ENCRYPTION_KEY_ID, key: config.SETTINGS_ENCRYPTION_KEY },
      previous: config.SETTINGS_ENCRYPTION_OLD_KEYS,
    }),
    models,
    workspaces: createWorkspaceRepository(models),
    memberships: createMembershipRepository(models, locks),
    settings: createSettingRepository(models.Setting),
    providerFetch,
    trustedProviderFetch,
  };

  await Promise.all(Object.values(models).map((model) => model.init()));
  await ensureDefaultWorkspace(d);

  const processed = createProcessedStore(mongo);
  const consumers = await Promise.all([subscribeUserDeleted(d, processed), subscribeOwnEvents(d)]);
  const served = await serveRequests(d);
  for (const model of [models.Workspace, models.Membership, models.Setting]) outbox.watch(model);

  onStop('consumers', async () => {
    await Promise.all([...consumers, ...served].map((c) => c.close()));
  });
  onStop('outbox', () => outbox.close());
  onStop(
    'orphan sweep',
    startOrphanSweep({
      store: storage,
      logger,
      config,
      isReferenced: (key) => isLogoReferenced(d, key),
    }),
  );
  onStop('provider connections', async () => {
    await Promise.all([providerFetch.close(), trustedProviderFetch.close()]);
  });

  return createHttpApp({
    service: 'workspace',
    logger,
    readiness,
    routes: (app) => {
      const router = Router();
      const mount = routeMounter(router, {
        service: 'workspace',
        contextKey: config.CONTEXT_PUBLIC_KEY,
      });
      workspaceRoutes(mount, d);
      memberRoutes(mount, d);
      logoRoutes(mount, d);
      settingsRoutes(mount, d);
      brandVoiceRoutes(mount, d);
      app.use(router);
    },
  });
}
