import type { Role } from '@aict/contracts';
import { apiCall } from './route-client';
import { workspaceRoutes } from './routes';

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

export const workspaceCalls = {
  /** POST /api/workspaces */
  create: (body: WorkspaceInput) => apiCall(workspaceRoutes.create, { body }),
  /** PATCH /api/workspaces/{id} */
  update: ({ id, ...body }: WorkspaceInput & { id: number }) =>
    apiCall(workspaceRoutes.update, { params: { id }, body }),
  /** DELETE /api/workspaces/{id} */
  remove: async (id: number): Promise<void> => {
    await apiCall(workspaceRoutes.remove, { params: { id } });
  },
  /** POST /api/workspaces/{workspaceId}/users */
  addMember: ({ workspaceId, userId, role }: MemberRoleInput) =>
    apiCall(workspaceRoutes.addMember, { params: { workspaceId }, body: { userId, role } }),
  /** PATCH /api/workspaces/{workspaceId}/users/{userId} */
  updateMemberRole: ({ role, ...member }: MemberRoleInput) =>
    apiCall(workspaceRoutes.updateMember, { params: member, body: { role } }),
  /** DELETE /api/workspaces/{workspaceId}/users/{userId} */
  removeMember: async (member: MemberInput): Promise<void> => {
    await apiCall(workspaceRoutes.removeMember, { params: member });
  },
};
