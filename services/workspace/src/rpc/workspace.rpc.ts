import {
  ADD_MEMBER_RPC,
  AddMemberRequest,
  MEMBERSHIPS_SNAPSHOT_RPC,
  MembershipsSnapshotRequest,
  PROVIDER_CONFIG_RPC,
  ProviderConfigRequest,
  SYNC_SSO_MEMBERSHIPS_RPC,
  SyncSsoMembershipsRequest,
  type SyncSsoMembershipsReply,
  USER_MEMBERSHIPS_RPC,
  UserMembershipsRequest,
  type AddMemberReply,
  type UserMemberships,
} from '@aict/contracts';
import type { Served } from '@aict/service-kit';
import { assignMember } from '../domain/add-member';
import type { DomainDeps } from '../domain/domain-deps';
import { membershipsSnapshot } from '../domain/memberships-snapshot';
import { resolveProviderConfig } from '../domain/resolve-provider-config';
import { syncSsoMemberships } from '../domain/sync-sso-memberships';
import { workspaceNotFound } from '../domain/workspace.errors';
import { presentMembership } from '../presenters/membership.presenter';

/** The request/reply endpoints this service answers on RabbitMQ. */
export function serveRequests(d: DomainDeps): Promise<Served[]> {
  return Promise.all([
    // The gateway's start-up: every membership.
    d.bus.serve(MEMBERSHIPS_SNAPSHOT_RPC, MembershipsSnapshotRequest, async () => ({
      memberships: (await membershipsSnapshot(d)).map((m) =>
        presentMembership(m.workspaceId, m.userId, m.role),
      ),
    })),

    // The generation service: the key (decrypted; it leaves only over this internal call),
    // base URL and default models that apply to a workspace.
    d.bus.serve(PROVIDER_CONFIG_RPC, ProviderConfigRequest, ({ workspaceId }) =>
      resolveProviderConfig(d, workspaceId),
    ),

    // The auth service: a user created with a workspace and role lands in it.
    d.bus.serve(ADD_MEMBER_RPC, AddMemberRequest, async ({ workspaceId, userId, role }) => {
      if (!(await d.workspaces.findById(workspaceId))) throw workspaceNotFound();
      const change = await assignMember(d, workspaceId, userId, role);
      const reply: AddMemberReply = {
        membership: presentMembership(workspaceId, userId, role),
        changed: change.events.length > 0,
        events: change.events as unknown as AddMemberReply['events'],
      };
      return reply;
    }),

    // The auth service, at each single sign-on: the memberships the provider's claim grants.
    d.bus.serve(SYNC_SSO_MEMBERSHIPS_RPC, SyncSsoMembershipsRequest, async ({ userId, grants }) => {
      const result = await syncSsoMemberships(d, userId, grants);
      const reply: SyncSsoMembershipsReply = {
        ...result,
        events: result.events as unknown as SyncSsoMembershipsReply['events'],
      };
      return reply;
    }),

    // The auth service: a user's memberships as they are now (its read model lags).
    d.bus.serve(USER_MEMBERSHIPS_RPC, UserMembershipsRequest, async ({ userId }) => {
      const index = await d.memberships.readIndex(userId);
      const reply: UserMemberships = {
        memberships: Object.entries(index?.ws ?? {}).flatMap(([id, entry]) =>
          entry.role ? [{ workspaceId: Number(id), role: entry.role }] : [],
        ),
      };
      return reply;
    }),
  ]);
}
