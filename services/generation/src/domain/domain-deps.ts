import type { ProviderConfigCache } from './provider-config-cache';
import type { Model } from 'mongoose';
import type { Bus, KeyedLock, LockedOutbox, Logger, ObjectStore } from '@aict/service-kit';
import type { PromptForGenerationReply } from '@aict/contracts';
import type { Config } from '../config';
import type { TtlCache } from '../lib/ttl-cache';
import type { AttachmentRecord } from '../data/attachment.model';
import type { AttachmentRepository } from '../data/attachment.repository';
import type { GenerationRecord } from '../data/generation.model';
import type { GenerationRepository } from '../data/generation.repository';
import type { IdempotencyRecord } from '../data/idempotency.model';
import type { IdempotencyRepository } from '../data/idempotency.repository';
import type { KeyedSlots } from '../lib/keyed-slots';
import type { LiveGenerations } from './live-generations';
import type { UsageRepository } from '../data/usage.repository';
import type { RateSlotDoc, TallySlotDoc, UsageEntry, UsageLimitDoc } from '../data/usage.model';
import type { Clock } from './usage';
import type { UsageRuntime } from './usage-runtime';
import type { ProviderClient } from '../provider/provider-client';

/** What the use cases work with. */
export interface DomainDeps {
  config: Readonly<Config>;
  logger: Logger;
  bus: Bus;
  storage: ObjectStore;
  relay: LockedOutbox;
  locks: KeyedLock;
  provider: ProviderClient;
  /** Provider configuration per workspace, kept a few seconds (domain/provider-config-cache.ts). */
  providerConfigs: ProviderConfigCache;
  /**
   * Prompts as the prompt service gave them, per workspace in view and prompt, found ones only:
   * cleared by every prompt event (events/prompt-changed.consumer.ts), kept at most
   * `PROMPT_CACHE_TTL_MS` when an event is missed.
   */
  prompts: TtlCache<PromptForGenerationReply>;
  /** Places for running generations, per workspace (the noisy-neighbour cap, per replica). */
  generationSlots: KeyedSlots;
  /** Generations running now, by user and workspace: stopped when their rights go. */
  liveGenerations: LiveGenerations;
  generations: GenerationRepository;
  attachments: AttachmentRepository;
  idempotency: IdempotencyRepository;
  /** The usage ledger, month counters, prices and limits (domain/usage.ts). */
  usage: UsageRepository;
  /** Prices, counter batches and settles kept in the process (domain/usage-runtime.ts). */
  usageRuntime: UsageRuntime;
  /** Months and minutes of the usage limits are read from it (tests move it). */
  clock: Clock;
  /** The models themselves: for the outbox relay and start-up only (queries: the repositories). */
  models: {
    Generation: Model<GenerationRecord>;
    Attachment: Model<AttachmentRecord>;
    Idempotency: Model<IdempotencyRecord>;
    UsageEntry: Model<UsageEntry>;
    UsageChain: Model<unknown>;
    UsageLimit: Model<UsageLimitDoc>;
    UsageRateSlot: Model<RateSlotDoc>;
    UsageTallySlot: Model<TallySlotDoc>;
  };
}
