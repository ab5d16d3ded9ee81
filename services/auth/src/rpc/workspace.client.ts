import {
  ADD_MEMBER_RPC,
  AddMemberReply,
  MEMBERSHIPS_SNAPSHOT_RPC,
  MembershipsSnapshot,
  SYNC_SSO_MEMBERSHIPS_RPC,
  SyncSsoMembershipsReply,
  USER_MEMBERSHIPS_RPC,
  UserMemberships,
  type AddMemberRequest,
  type SyncSsoMembershipsRequest,
} from '@aict/contracts';
import type { Bus } from '@aict/service-kit';

/** What the auth service asks the workspace service (request/reply). */
export interface WorkspaceClient {
  /** Adds a user to a workspace with a role (the caller has authorised it). */
  addMember(request: AddMemberRequest): Promise<AddMemberReply>;
  /** Every membership: the source the read model is repaired from. */
  membershipsSnapshot(): Promise<MembershipsSnapshot>;
  /** One user's current memberships (the source of truth, not the read model). */
  userMemberships(userId: string): Promise<UserMemberships>;
  /** Single sign-on: the user's memberships become those the provider's claim grants. */
  syncSsoMemberships(request: SyncSsoMembershipsRequest): Promise<SyncSsoMembershipsReply>;
}

export function workspaceClient(bus: Bus, timeoutMs = 5_000): WorkspaceClient {
  return {
    addMember: (request) =>
      bus.request(ADD_MEMBER_RPC, request, { timeoutMs, schema: AddMemberReply }),
    membershipsSnapshot: () =>
      bus.request(MEMBERSHIPS_SNAPSHOT_RPC, {}, { timeoutMs, schema: MembershipsSnapshot }),
    userMemberships: (userId) =>
      bus.request(USER_MEMBERSHIPS_RPC, { userId }, { timeoutMs, schema: UserMemberships }),
    syncSsoMemberships: (request) =>
      bus.request(SYNC_SSO_MEMBERSHIPS_RPC, request, {
        timeoutMs,
        schema: SyncSsoMembershipsReply,
      }),
  };
}
