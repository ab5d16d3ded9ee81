import type { PromptView, User } from '@aict/contracts';

// Who may manage a prompt, one rule for every remote (the admin remote's edit screen and the
// generation remote's Stats links). SPEC §6: a super admin manages every prompt; an admin of the current workspace edits and
// deletes any prompt of that workspace; a prompt's creator edits and deletes their own. A
// prompt published to every workspace (isPublic) is the super admin's alone: only they publish
// and change it (the prompt service answers 403 to anyone else).

type Viewer = Pick<User, 'id' | 'isSuperAdmin'> | null | undefined;
type Subject = Pick<PromptView, 'userId' | 'workspaceId' | 'isPublic'>;

export interface AccessContext {
  /** A super admin, or role 'admin' in the current workspace (useWorkspace().isAdmin). */
  isAdmin: boolean;
  currentWorkspaceId: number | null;
}

export function isCreator(user: Viewer, prompt: Pick<PromptView, 'userId'>): boolean {
  return user != null && prompt.userId === user.id;
}

function manages(user: Viewer, prompt: Subject, { isAdmin, currentWorkspaceId }: AccessContext) {
  if (user?.isSuperAdmin) return true;
  if (prompt.isPublic) return false;
  if (isCreator(user, prompt)) return true;
  return isAdmin && prompt.workspaceId != null && prompt.workspaceId === currentWorkspaceId;
}

/** The 'Edit Prompt' tab. */
export const canEditPrompt = manages;

/** Delete is offered to the prompt's creator or admins. */
export const canDeletePrompt = manages;

/** The 'Public' switch: publishing to every workspace is the super admin's act. */
export const canPublishPrompt = (user: Viewer) => user?.isSuperAdmin === true;
