import type { Membership, Role, Workspace } from '@aict/contracts';
import { apiJson, apiRequest } from './http';

// The workspace and membership calls of SPEC §7 "Workspaces" that the workspace provider
// runs (its mutations add the toasts and the cache updates). Plain fetchers, so a screen
// that chains calls (create a user, then assign a workspace) can run one on its own.

export interface WorkspaceInput {
  name: string;
  description?: string;
}

export interface MemberInput {
  workspaceId: number;
  userId: string;
}

export interface MemberRoleInput extends MemberInput {
  role: Role;
}

const workspacePath = (id: number) => `/api/workspaces/${encodeURIComponent(String(id))}`;
const memberPath = ({ workspaceId, userId }: MemberInput) =>
  `${workspacePath(workspaceId)}/users/${encodeURIComponent(userId)}`;

export const workspaceCalls = {
  /** POST /api/workspaces */
  create: (body: WorkspaceInput) => apiJson<Workspace>('POST', '/api/workspaces', body),
  /** PATCH /api/workspaces/{id} */
  update: ({ id, ...body }: WorkspaceInput & { id: number }) =>
    apiJson<Workspace>('PATCH', workspacePath(id), body),
  /** DELETE /api/workspaces/{id} */
  remove: async (id: number): Promise<void> => {
    await apiRequest('DELETE', workspacePath(id));
  },
  /** POST /api/workspaces/{workspaceId}/users */
  addMember: ({ workspaceId, userId, role }: MemberRoleInput) =>
    apiJson<Membership>('POST', `${workspacePath(workspaceId)}/users`, { userId, role }),
  /** PATCH /api/workspaces/{workspaceId}/users/{userId} */
  updateMemberRole: ({ role, ...member }: MemberRoleInput) =>
    apiJson<Membership>('PATCH', memberPath(member), { role }),
  /** DELETE /api/workspaces/{workspaceId}/users/{userId} */
  removeMember: async (member: MemberInput): Promise<void> => {
    await apiRequest('DELETE', memberPath(member));
  },
};
