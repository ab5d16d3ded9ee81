import type { Bus, KeyedLock, Logger } from '@aict/service-kit';
import type { Config } from '../config';
import type { ContentCollections } from '../data/collections';
import type { HistoryRepository } from '../data/history.repository';
import type { SearchPageCache } from './search-cache';

/** What the use cases work with (built once in app.ts). */
export interface DomainDeps {
  config: Readonly<Config>;
  logger: Logger;
  bus: Bus;
  c: ContentCollections;
  history: HistoryRepository;
  /** Every write of one owner (workspace, or user without one) runs under `owner:<key>`. */
  locks: KeyedLock;
  searchCache: SearchPageCache;
}

export const ownerLock = (key: string) => `owner:${key}`;
