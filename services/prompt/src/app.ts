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
import { isReferenceImageReferenced } from './domain/reference-image-objects';
import { createDefaultChain, defaultPointerModel } from './data/default-pointer.model';
import { createImagesChain, promptImagesModel } from './data/prompt-images.model';
import { promptModel } from './data/prompt.model';
import { createVersionsChain, promptVersionsModel } from './data/prompt-versions.model';
import { createPromptRepository } from './data/prompt.repository';
import { createSummaryChain, summaryModel } from './data/prompt-summary.model';
import type { DomainDeps } from './domain/domain-deps';
import { subscribeOwnEvents } from './events/own-events.consumer';
import { subscribeWorkspaceDeleted } from './events/workspace-deleted.consumer';
import { promptRoutes } from './routes/prompts.routes';
import { referenceImageRoutes } from './routes/reference-images.routes';
import { serveRequests } from './rpc/prompt.rpc';
import { startPublicScopeMigration } from './domain/scope-public-prompts';

export interface AppDeps extends ServiceDeps {
  config: Readonly<Config>;
}

/** What the use cases work with, over the service's MongoDB, MinIO and RabbitMQ. */
export function createDomain(deps: AppDeps): DomainDeps {
  const { config, logger, mongo, storage, bus } = deps;
  if (!mongo || !storage || !bus)
    throw new Error('the prompt service needs MongoDB, MinIO and RabbitMQ');
  const models = {
    Prompt: promptModel(mongo),
    DefaultPointer: defaultPointerModel(mongo),
    PromptSummary: summaryModel(mongo),
    PromptImages: promptImagesModel(mongo),
    PromptVersion: promptVersionsModel(mongo),
  };
  const locks = new KeyedLock();
  return {
    config,
    logger,
    bus,
    relay: createLockedOutbox(
      createOutboxRelay({ bus, logger, fullSweepMs: config.OUTBOX_SWEEP_MS }),
      locks,
      logger,
    ),
    locks,
    storage,
    models,
    prompts: createPromptRepository(models.Prompt, locks),
    summaries: createSummaryChain(models.PromptSummary),
    defaults: createDefaultChain(models.DefaultPointer),
    images: createImagesChain(models.PromptImages),
    versions: createVersionsChain(models.PromptVersion),
    publicScope: { settled: false },
  };
}

/**
 * The prompt service: prompts, the workspace's default prompt and reference images over
 * HTTP; prompt.created/updated/deleted and prompt.default-changed published by the outbox;
 * `workspace.deleted` consumed, and its own prompt events as the repair of the summaries;
 * `prompt.for-generation` and `prompt.count` answered over request/reply.
 */
export async function createApp(deps: AppDeps) {
  const { config, logger, readiness, onStop } = deps;
  const d = createDomain(deps);
  const { models, relay } = d;

  await Promise.all(Object.values(models).map((model) => model.init()));

  const processed = createProcessedStore(models.Prompt.db);
  const consumers = await Promise.all([
    subscribeWorkspaceDeleted(d, processed),
    subscribeOwnEvents(d),
  ]);
  const served = await serveRequests(d);
  // Before the first request: public prompts of workspace admins become workspace-scoped.
  onStop('public-scope migration', await startPublicScopeMigration(d));
  for (const model of [models.Prompt, models.DefaultPointer, models.PromptImages])
    relay.watch(model);

  onStop('consumers', async () => {
    await Promise.all([...consumers, ...served].map((consumer) => consumer.close()));
  });
  onStop('outbox', () => relay.close());
  onStop(
    'orphan sweep',
    startOrphanSweep({
      store: d.storage,
      logger,
      config,
      isReferenced: (key) => isReferenceImageReferenced(d, key),
    }),
  );

  return createHttpApp({
    service: 'prompt',
    logger,
    readiness,
    routes: (app) => {
      const router = Router();
      const mount = routeMounter(router, {
        service: 'prompt',
        contextKey: config.CONTEXT_PUBLIC_KEY,
      });
      promptRoutes(mount, d);
      referenceImageRoutes(mount, d);
      app.use(router);
    },
  });
}
