import type { Bus, KeyedLock, Logger } from '@aict/service-kit';
import type { Config } from '../config';
import type { ContentRepository } from '../data/content.repository';
import type { CountersRepository } from '../data/counters.repository';
import type { HistoryRepository } from '../data/history.repository';
import type { PendingRepository } from '../data/pending.repository';
import type { ReviewRepository } from '../data/review.repository';
import type { SearchPageCache } from './search-cache';

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
  /** Every write of one owner (workspace, or user without one) runs under `owner:<key>`. */
  locks: KeyedLock;
  searchCache: SearchPageCache;
}

export const ownerLock = (key: string) => `owner:${key}`;
