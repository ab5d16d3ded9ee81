import { Router } from 'express';
import {
  createHttpApp,
  createLockedOutbox,
  createOutboxRelay,
  createProcessedStore,
  KeyedLock,
  routeMounter,
  startOrphanSweep,
  type ServiceDeps,
} from '@aict/service-kit';
import type { PromptForGenerationReply } from '@aict/contracts';
import type { Config } from './config';
import { attachmentModel } from './data/attachment.model';
import { createAttachmentRepository } from './data/attachment.repository';
import { generationModel } from './data/generation.model';
import { createGenerationRepository } from './data/generation.repository';
import { idempotencyModel } from './data/idempotency.model';
import { createIdempotencyRepository } from './data/idempotency.repository';
import type { DomainDeps } from './domain/domain-deps';
import {
  rateSlotModel,
  tallySlotModel,
  usageChainModel,
  usageLedgerModel,
  usageLimitModel,
} from './data/usage.model';
import { createUsageRepository } from './data/usage.repository';
import { createUsageRuntime } from './domain/usage-runtime';
import { subscribePromptChanged } from './events/prompt-changed.consumer';
import { createTtlCache } from './lib/ttl-cache';
import { usageRoutes } from './routes/usage.routes';
import { isObjectReferenced } from './domain/cleanup';
import { createProviderConfigCache } from './domain/provider-config-cache';
import { LiveGenerations } from './domain/live-generations';
import { SELECT_A_WORKSPACE, workspaceBusy } from './domain/generation.errors';
import { createKeyedSlots } from './lib/keyed-slots';
import { subscribeContentDeleted, subscribeWorkspaceDeleted } from './events/files.consumer';
import { subscribeSettingsChanged } from './events/settings-changed.consumer';
import { subscribeRightsRevoked } from './events/rights-revoked.consumer';
import { createProviderClient } from './provider/provider-client';
import { fileRoutes } from './routes/files.routes';
import { generationRoutes } from './routes/generation.routes';

export interface AppDeps extends ServiceDeps {
  config: Readonly<Config>;
}

/** What the use cases work with, over the service's MongoDB, MinIO, RabbitMQ and the provider. */
export function createDomain(deps: AppDeps): DomainDeps {
  const { config, logger, mongo, storage, bus } = deps;
  if (!mongo || !storage || !bus)
    throw new Error('the generation service needs MongoDB, MinIO and RabbitMQ');
  const locks = new KeyedLock();
  const models = {
    Generation: generationModel(mongo),
    Attachment: attachmentModel(mongo),
    Idempotency: idempotencyModel(mongo),
    UsageEntry: usageLedgerModel(mongo),
    UsageChain: usageChainModel(mongo),
    UsageLimit: usageLimitModel(mongo),
    UsageRateSlot: rateSlotModel(mongo),
    UsageTallySlot: tallySlotModel(mongo),
  };
  const usage = createUsageRepository(
    {
      Ledger: models.UsageEntry,
      Chains: models.UsageChain,
      Limits: models.UsageLimit,
      RateSlots: models.UsageRateSlot,
      TallySlots: models.UsageTallySlot,
    },
    { limitCacheMs: config.USAGE_CACHE_MS, staleMs: config.CACHE_STALE_MS },
  );
  return {
    config,
    logger,
    bus,
    storage,
    locks,
    relay: createLockedOutbox(
      createOutboxRelay({ bus, logger, fullSweepMs: config.OUTBOX_SWEEP_MS }),
      locks,
      logger,
    ),
    provider: createProviderClient(config, logger),
    providerConfigs: createProviderConfigCache(config.PROVIDER_CONFIG_TTL_MS, {
      staleMs: config.CACHE_STALE_MS,
    }),
    prompts: createTtlCache<PromptForGenerationReply>(config.PROMPT_CACHE_TTL_MS, {
      keep: (reply) => reply.found,
      staleMs: config.CACHE_STALE_MS,
    }),
    generationSlots: createKeyedSlots({
      maxRunning: config.GENERATION_MAX_CONCURRENT_PER_WORKSPACE,
      sharedPlaces: config.GENERATION_SHARED_PLACES,
      maxQueued: config.GENERATION_MAX_QUEUED_PER_WORKSPACE,
      refuse: workspaceBusy,
      floodShare: config.GENERATION_FLOOD_SHARE_PERCENT / 100,
      retryAfter: {
        minSeconds: config.GENERATION_BUSY_RETRY_AFTER_SECONDS,
        maxSeconds: Math.max(
          config.GENERATION_BUSY_RETRY_AFTER_SECONDS,
          config.GENERATION_BUSY_RETRY_AFTER_MAX_SECONDS,
        ),
      },
    }),
    liveGenerations: new LiveGenerations(),
    generations: createGenerationRepository(models.Generation),
    attachments: createAttachmentRepository(models.Attachment),
    idempotency: createIdempotencyRepository(models.Idempotency),
    usage,
    usageRuntime: createUsageRuntime(config.USAGE_CACHE_MS, usage.counters, config.CACHE_STALE_MS),
    clock: { now: () => new Date() },
    models,
  };
}

/**
 * The generation service: text and image generation through the AI provider (JSON or a
 * stream), chat attachments and generated images in MinIO, the hand-over of every result to
 * the content service (outbox + content.store), and clean-up on content/workspace deletion.
 */
export async function createApp(deps: AppDeps) {
  const { config, logger, readiness, onStop } = deps;
  const d = createDomain(deps);
  await Promise.all(Object.values(d.models).map((model) => model.init()));

  const processed = createProcessedStore(d.models.Generation.db);
  const consumers = await Promise.all([
    subscribeContentDeleted(d, processed),
    subscribeWorkspaceDeleted(d, processed),
    subscribeSettingsChanged(d),
    subscribePromptChanged(d),
    ...(await subscribeRightsRevoked(d)),
  ]);
  d.relay.watch(d.models.Generation);

  onStop('consumers', async () => {
    await Promise.all(consumers.map((consumer) => consumer.close()));
  });
  onStop('outbox', () => d.relay.close());
  onStop('usage settles', () => d.usageRuntime.settles.drain());
  onStop('provider', () => d.provider.close());
  const stopSweep = startOrphanSweep({
    store: d.storage,
    logger,
    config,
    isReferenced: (key) => isObjectReferenced(d, key),
  });
  onStop('orphan sweep', stopSweep);

  const app = createHttpApp({
    service: 'generation',
    logger,
    readiness,
    routes: (app) => {
      const router = Router();
      // Each group of routes says in its own words that it needs a workspace.
      const mountSaying = (workspaceRequired: string) =>
        routeMounter(router, {
          service: 'generation',
          contextKey: config.CONTEXT_PUBLIC_KEY,
          workspaceRequired,
        });
      generationRoutes(mountSaying(SELECT_A_WORKSPACE.generating), d);
      fileRoutes(mountSaying(SELECT_A_WORKSPACE.uploading), d);
      usageRoutes(mountSaying(SELECT_A_WORKSPACE.usage), d);
      app.use(router);
    },
  });
  // The usage clock, for tests that cross a month boundary.
  app.locals.usageClock = d.clock;
  return app;
}
