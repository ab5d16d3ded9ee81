import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { Membership } from '../entities/user';
import { ImageModel, Role, TextModel } from '../primitives';
import { BrandVoice } from '../http/brand-voice';

// Request/reply served by the workspace service (docs/adr/0001-identity-and-tenancy.md).

/** Every membership, for a gateway instance starting up (after it has subscribed). */
export const MEMBERSHIPS_SNAPSHOT_RPC = 'workspace.memberships-snapshot';

/** The request carries nothing (an empty object; unknown keys are ignored). */
export const MembershipsSnapshotRequest = z.object({}).loose();
export type MembershipsSnapshotRequest = z.infer<typeof MembershipsSnapshotRequest>;

export const MembershipsSnapshot = z.object({ memberships: z.array(Membership) });
export type MembershipsSnapshot = z.infer<typeof MembershipsSnapshot>;

/**
 * What a generation needs to call the AI provider for a workspace (null: no workspace).
 * The decrypted key leaves the workspace service only through this internal call.
 */
export const PROVIDER_CONFIG_RPC = 'workspace.provider-config';

export const ProviderConfigRequest = z.object({ workspaceId: WorkspaceId.nullable() });
export type ProviderConfigRequest = z.infer<typeof ProviderConfigRequest>;

/**
 * The key and base URL travel together: a workspace's own base URL is used only with the
 * workspace's own key, so the global key is never sent to an address a workspace chose.
 */
export const ProviderConfig = z.object({
  /** The workspace's key, else the global one; null when neither is set. */
  apiKey: z.string().nullable(),
  keySource: z.enum(['workspace', 'global']).nullable(),
  /** e.g. https://api.openai.com/v1 */
  baseUrl: z.string(),
  /**
   * `environment`: the operator's OPENAI_BASE_URL (trusted). `workspace`/`global`: entered in
   * the product; connect only to public addresses (no redirects) unless the operator allows
   * private ones.
   */
  baseUrlSource: z.enum(['workspace', 'global', 'environment']),
  defaultTextModel: TextModel,
  defaultImageModel: ImageModel,
  /** The workspace's brand voice (issue 18); null or absent: none. */
  brandVoice: BrandVoice.nullish(),
});
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/**
 * Adds a user to a workspace (or changes the role), e.g. when the auth service creates a
 * user with a workspace and role. The caller has authorised the request. `events` are the
 * identity events published (for the `x-aict-identity-events` header of the caller's answer).
 */
export const ADD_MEMBER_RPC = 'workspace.add-member';

export const AddMemberRequest = z.object({
  workspaceId: WorkspaceId,
  userId: EntityId,
  role: Role.default('user'),
});
export type AddMemberRequest = z.input<typeof AddMemberRequest>;

export const AddMemberReply = z.object({
  membership: Membership,
  /** False when the user was already a member with that role (nothing changed). */
  changed: z.boolean(),
  events: z.array(z.record(z.string(), z.unknown())),
});
export type AddMemberReply = z.infer<typeof AddMemberReply>;

/**
 * One user's current memberships, from the source of truth: the auth service asks when its
 * read model (fed by events, so a moment behind) would refuse an administrator, so that
 * user administration sees a membership written a moment ago.
 */
export const USER_MEMBERSHIPS_RPC = 'workspace.user-memberships';

export const UserMembershipsRequest = z.object({ userId: EntityId });
export type UserMembershipsRequest = z.infer<typeof UserMembershipsRequest>;

export const UserMemberships = z.object({
  memberships: z.array(z.object({ workspaceId: WorkspaceId, role: Role })),
});
export type UserMemberships = z.infer<typeof UserMemberships>;

/**
 * Single sign-on: makes a user's memberships those the identity provider's claim grants,
 * by workspace name (the auth service parsed the claim): every membership not granted is
 * removed, so a group removed at the provider removes the membership at the next sign-in.
 * Unknown names are skipped (reported in `unknown`); a workspace's last admin is not
 * removed (reported in `kept`). `events` as in AddMemberReply.
 */
export const SYNC_SSO_MEMBERSHIPS_RPC = 'workspace.sync-sso-memberships';

export const SyncSsoMembershipsRequest = z.object({
  userId: EntityId,
  grants: z.array(z.object({ workspaceName: z.string().min(1).max(200), role: Role })).max(500),
});
export type SyncSsoMembershipsRequest = z.infer<typeof SyncSsoMembershipsRequest>;

export const SyncSsoMembershipsReply = z.object({
  memberships: z.array(z.object({ workspaceId: WorkspaceId, role: Role })),
  unknown: z.array(z.string()),
  kept: z.array(WorkspaceId),
  events: z.array(z.record(z.string(), z.unknown())),
});
export type SyncSsoMembershipsReply = z.infer<typeof SyncSsoMembershipsReply>;
