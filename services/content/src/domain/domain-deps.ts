import type { Bus, KeyedLock, Logger } from '@aict/service-kit';
import type { Config } from '../config';
import type { ContentRepository } from '../data/content.repository';
import type { CountersRepository } from '../data/counters.repository';
import type { GeneratedImages } from '../data/generated-images';
import type { HistoryRepository } from '../data/history.repository';
import type { PendingRepository } from '../data/pending.repository';
import type { PromptResultsRepository } from '../data/prompt-results.repository';
import type { ReviewRepository } from '../data/review.repository';
import type { SearchIndexRepository } from '../data/search-index.repository';
import type { SearchPageCache } from '../data/page-cache';
import type { IndexQueue } from './search-index';

/** What the use cases work with (built once in app.ts). */
export interface DomainDeps {
  config: Readonly<Config>;
  logger: Logger;
  bus: Bus;
  contents: ContentRepository;
  counters: CountersRepository;
  pending: PendingRepository;
  history: HistoryRepository;
  reviews: ReviewRepository;
  /** Template results per prompt and workspace (issue 18). */
  promptResults: PromptResultsRepository;
  /** The generated images, in the generation service's bucket (the workspace export). */
  images: GeneratedImages;
  /** The search's trigram index (README "Search index"). */
  index: SearchIndexRepository;
  /** The index upkeep, after the writes (README "Search index"). */
  indexer: IndexQueue;
  /** Every write of one owner (workspace, or user without one) runs under `owner:<key>`. */
  locks: KeyedLock;
  searchCache: SearchPageCache;
}

export const ownerLock = (key: string) => `owner:${key}`;
