import { Router } from 'express';
import {
  createHttpApp,
  createProcessedStore,
  KeyedLock,
  routeMounter,
  type ServiceDeps,
} from '@aict/service-kit';
import type { Config } from './config';
import { contentCollections, ensureIndexes } from './data/collections';
import { createContentRepository } from './data/content.repository';
import { createCountersRepository } from './data/counters.repository';
import { createGeneratedImages } from './data/generated-images';
import { createReviewRepository } from './data/review.repository';
import { createHistoryRepository } from './data/history.repository';
import { createPendingRepository } from './data/pending.repository';
import { createPromptResultsRepository } from './data/prompt-results.repository';
import { createSearchIndexRepository } from './data/search-index.repository';
import type { DomainDeps } from './domain/domain-deps';
import { watchPending } from './domain/repair';
import { SearchPageCache } from './data/page-cache';
import { catchUpIndex, indexPage, IndexQueue } from './domain/search-index';
import { subscribeGenerationCompleted } from './events/generation-completed.consumer';
import { subscribeWorkspaceDeleted } from './events/workspace-deleted.consumer';
import { contentRoutes } from './routes/contents.routes';
import { workspaceExportRoutes } from './routes/workspace-export.routes';
import { serveContentStore } from './rpc/content-store.rpc';

export interface AppDeps extends ServiceDeps {
  config: Readonly<Config>;
}

/** What the use cases work with, over the service's MongoDB and RabbitMQ. */
export function createDomain(deps: AppDeps): DomainDeps {
  const { config, logger, mongo, bus, storage } = deps;
  if (!mongo || !bus || !storage)
    throw new Error('the content service needs MongoDB, RabbitMQ and MinIO');
  const c = contentCollections(mongo);
  // The pages read or written, for one version each: the search's and the store's.
  const pages = new SearchPageCache(config.SEARCH_CACHE_MB * 1024 * 1024);
  const d: DomainDeps = {
    config,
    logger,
    bus,
    contents: createContentRepository(c),
    counters: createCountersRepository(c),
    pending: createPendingRepository(c),
    history: createHistoryRepository(c, config.HISTORY_PAGE_SIZE, pages),
    reviews: createReviewRepository(mongo),
    promptResults: createPromptResultsRepository(c),
    images: createGeneratedImages(storage, config.GENERATION_BUCKET),
    index: createSearchIndexRepository(c),
    indexer: new IndexQueue((key, page, ver) => indexPage(d, key, page, ver), logger),
    locks: new KeyedLock(),
    searchCache: pages,
  };
  return d;
}

/**
 * The content service: history, contents, conversations and stats over HTTP; stores finished
 * generations (request/reply `content.store` and event `generation.completed`, one idempotent
 * use case), publishes content.created/deleted, consumes workspace.deleted, and repairs the
 * derived documents of writes a crash interrupted.
 */
export async function createApp(deps: AppDeps) {
  const { config, logger, readiness, onStop } = deps;
  const d = createDomain(deps);
  await ensureIndexes(contentCollections(deps.mongo!), logger);

  const processed = createProcessedStore(deps.mongo!);
  const endpoints = await Promise.all([
    serveContentStore(d),
    subscribeGenerationCompleted(d),
    subscribeWorkspaceDeleted(d, processed),
  ]);
  const stopRepair = watchPending(d);
  // The index's share of the repair: pages whose upkeep a stopped process lost.
  void catchUpIndex(d).catch((err: unknown) =>
    logger.warn({ err }, 'search index catch-up failed; searches read those pages whole'),
  );

  onStop('consumers', async () => {
    await Promise.all(endpoints.map((endpoint) => endpoint.close()));
  });
  onStop('repair', stopRepair);
  onStop('search index upkeep', () => d.indexer.stop());

  return createHttpApp({
    service: 'content',
    logger,
    readiness,
    routes: (app) => {
      const router = Router();
      const mount = routeMounter(router, {
        service: 'content',
        contextKey: config.CONTEXT_PUBLIC_KEY,
      });
      contentRoutes(mount, d);
      workspaceExportRoutes(mount, d);
      app.use(router);
    },
  });
}
