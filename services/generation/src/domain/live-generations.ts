import type { TrustedContext } from '@aict/contracts';

/** Why a running generation was stopped by a change of its caller's rights. */
export type RevokedBecause =
  | 'user deleted'
  | 'sessions revoked'
  | 'membership changed'
  | 'workspace deleted'
  | 'super admin removed';

interface Live {
  userId: string;
  workspaceId: number | null;
  /** It runs only because the caller is a super administrator (not a member there). */
  bySuperAdmin: boolean;
  controller: AbortController;
}

export interface LiveGeneration {
  /** Aborted when the caller's right to it goes (the reason is `signal.reason`). */
  signal: AbortSignal;
  /** Leaves the registry (the generation ended). */
  close(): void;
}

/**
 * The generations running in this instance, by user and workspace, so that a change of rights
 * (a user deleted or signed out everywhere, a membership removed or lowered, a workspace
 * deleted, a super administrator no longer one) stops them at once: a stream ends with an
 * `error` event and nothing is saved under the user.
 */
export class LiveGenerations {
  private readonly live = new Set<Live>();

  open(ctx: TrustedContext, workspaceId: number | null): LiveGeneration {
    const entry: Live = {
      userId: ctx.uid ?? '',
      workspaceId,
      bySuperAdmin: ctx.sa && (workspaceId === null || !ctx.roles[String(workspaceId)]),
      controller: new AbortController(),
    };
    this.live.add(entry);
    return { signal: entry.controller.signal, close: () => this.live.delete(entry) };
  }

  /** How many run now (tests, metrics). */
  get size(): number {
    return this.live.size;
  }

  /** Stops those matching `which`; returns how many were stopped. */
  private stop(which: (live: Live) => boolean, reason: RevokedBecause): number {
    let stopped = 0;
    for (const entry of this.live) {
      if (!which(entry)) continue;
      this.live.delete(entry);
      entry.controller.abort(reason);
      stopped += 1;
    }
    return stopped;
  }

  userDeleted(userId: string): number {
    return this.stop((l) => l.userId === userId, 'user deleted');
  }

  sessionsRevoked(userId: string): number {
    return this.stop((l) => l.userId === userId, 'sessions revoked');
  }

  /** role null (removed) or 'user' (demoted): the user's generations in that workspace stop. */
  membershipChanged(userId: string, workspaceId: number, role: string | null): number {
    if (role === 'admin') return 0;
    return this.stop(
      (l) => l.userId === userId && l.workspaceId === workspaceId && !l.bySuperAdmin,
      'membership changed',
    );
  }

  workspaceDeleted(workspaceId: number): number {
    return this.stop((l) => l.workspaceId === workspaceId, 'workspace deleted');
  }

  /** A user who is no longer a super administrator loses what ran on that right alone. */
  superAdminRemoved(userId: string): number {
    return this.stop((l) => l.userId === userId && l.bySuperAdmin, 'super admin removed');
  }
}
