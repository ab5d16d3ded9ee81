import { membershipId } from '../data/membership.repository';
import { settingId } from '../data/setting.model';
import type { SettingKey } from '@aict/contracts';
import { docKey } from '@aict/service-kit';
import type { DomainDeps } from './domain-deps';

// One writer per document at a time (see KeyedLock). Order when nested: workspace before
// name claim; membership before the per-user index (taken inside the repository).

export const withWorkspaceLock = <T>(d: DomainDeps, workspaceId: number, work: () => Promise<T>) =>
  d.locks.run(docKey(d.models.Workspace, workspaceId), work);

export const withMembershipLock = <T>(
  d: DomainDeps,
  workspaceId: number,
  userId: string,
  work: () => Promise<T>,
) => d.locks.run(docKey(d.models.Membership, membershipId(workspaceId, userId)), work);

export const withSettingLock = <T>(
  d: DomainDeps,
  workspaceId: number | null,
  key: SettingKey,
  work: () => Promise<T>,
) => d.locks.run(docKey(d.models.Setting, settingId(workspaceId, key)), work);

export const withNameClaimLock = <T>(d: DomainDeps, nameKey: string, work: () => Promise<T>) =>
  d.locks.run(docKey(d.models.NameClaim, nameKey), work);
