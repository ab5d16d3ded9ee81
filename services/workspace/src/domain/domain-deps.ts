import type { Bus, Logger, ObjectStore } from '@aict/service-kit';
import type { Config } from '../config';
import type { MembershipModels } from '../data/membership.model';
import type { MembershipRepository } from '../data/membership.repository';
import type { SettingRepository } from '../data/setting.repository';
import type { WorkspaceModels } from '../data/workspace.model';
import type { WorkspaceRepository } from '../data/workspace.repository';
import type { KeyedLock, LockedOutbox } from '@aict/service-kit';
import type { ProviderFetch } from '@aict/service-kit';
import type { SecretBox } from '../lib/secret-box';
import type { SettingRecord } from '../data/setting.model';
import type { Model } from 'mongoose';

/** What the use cases work with (built once in app.ts). */
export interface DomainDeps {
  config: Readonly<Config>;
  logger: Logger;
  bus: Bus;
  /** Publishes what the writes left in their documents' outboxes. */
  outbox: LockedOutbox;
  /** One writer per document at a time (see KeyedLock). */
  locks: KeyedLock;
  storage: ObjectStore;
  secrets: SecretBox;
  models: WorkspaceModels & MembershipModels & { Setting: Model<SettingRecord> };
  workspaces: WorkspaceRepository;
  memberships: MembershipRepository;
  settings: SettingRepository;
  /** For provider URLs entered in the product (public addresses only unless allowed). */
  providerFetch: ProviderFetch;
  /** For the operator's OPENAI_BASE_URL (trusted). */
  trustedProviderFetch: ProviderFetch;
}
