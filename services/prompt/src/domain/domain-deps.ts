import type { Model } from 'mongoose';
import type { Bus, Logger, ObjectStore, OutboxModel } from '@aict/service-kit';
import type { Config } from '../config';
import type { DefaultChain } from '../data/default-pointer.model';
import type { ImagesChain } from '../data/prompt-images.model';
import type { PromptRecord } from '../data/prompt.model';
import type { VersionsChain } from '../data/prompt-versions.model';
import type { PromptRepository } from '../data/prompt.repository';
import type { SummaryChain } from '../data/prompt-summary.model';
import type { PublicScope } from './scope-public-prompts';
import type { KeyedLock, LockedOutbox } from '@aict/service-kit';

/** What the use cases work with (built once in app.ts). */
export interface DomainDeps {
  config: Readonly<Config>;
  logger: Logger;
  bus: Bus;
  /** The outbox relay, its flushes under each document's lock. */
  relay: LockedOutbox;
  locks: KeyedLock;
  storage: ObjectStore;
  models: {
    Prompt: Model<PromptRecord>;
    DefaultPointer: OutboxModel;
    PromptSummary: OutboxModel;
    PromptImages: OutboxModel;
    PromptVersion: OutboxModel;
  };
  prompts: PromptRepository;
  /** The summary chains the list reads (`ws:<id>`, `public`). */
  summaries: SummaryChain;
  /** The default prompt chains (`default:<id>`). */
  defaults: DefaultChain;
  /** The reference image chains (`images:<promptId>`). */
  images: ImagesChain;
  /** The prompts' histories (`versions:<promptId>`, issue 18). */
  versions: VersionsChain;
  /** Whether published prompts may cross workspaces yet (scope-public-prompts.ts). */
  publicScope: PublicScope;
}
