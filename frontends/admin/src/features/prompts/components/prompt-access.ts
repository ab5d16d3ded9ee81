import type { PromptView, User } from '@aict/contracts';

// SPEC §6: a super admin manages every prompt; an admin of the current workspace edits and
// deletes any prompt of that workspace; a prompt's creator edits and deletes their own. (A
// public prompt of another workspace is shown, but its admins manage it, not this one's.)

type Viewer = Pick<User, 'id' | 'isSuperAdmin'> | null | undefined;
type Subject = Pick<PromptView, 'userId' | 'workspaceId'>;

export interface AccessContext {
  /** A super admin, or role 'admin' in the current workspace (useWorkspace().isAdmin). */
  isAdmin: boolean;
  currentWorkspaceId: number | null;
}

export function isCreator(user: Viewer, prompt: Pick<PromptView, 'userId'>): boolean {
  return user != null && prompt.userId === user.id;
}

function manages(user: Viewer, prompt: Subject, { isAdmin, currentWorkspaceId }: AccessContext) {
  if (isCreator(user, prompt) || user?.isSuperAdmin) return true;
  return isAdmin && prompt.workspaceId != null && prompt.workspaceId === currentWorkspaceId;
}

/** The 'Edit Prompt' tab. */
export const canEditPrompt = manages;

/** Delete is offered to the prompt's creator or admins. */
export const canDeletePrompt = manages;
