import type { MembershipsSnapshot } from '@aict/contracts';
import { presentMembership } from '../presenters/membership.presenter';
import type { DomainDeps } from './domain-deps';

/** Every current membership, for a gateway starting up (`workspace.memberships-snapshot`). */
export async function membershipsSnapshot(d: DomainDeps): Promise<MembershipsSnapshot> {
  const memberships = await d.memberships.listActive();
  return {
    memberships: memberships.map((m) => presentMembership(m.workspaceId, m.userId, m.role!)),
  };
}
