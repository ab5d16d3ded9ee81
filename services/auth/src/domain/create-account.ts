import { randomUUID } from 'node:crypto';
import type { TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { ClaimKind } from '../data/claim.model';
import type { UserRecord } from '../data/user.model';
import { auditEnvelope, userSummary } from './audit-acts';
import type { AuthDeps } from './auth-deps';
import { hashPassword } from './passwords';
import { userErrors } from './user.errors';
import { userSnapshot } from './user-view';

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  isSuperAdmin: boolean;
  /** An administrator's act (`POST /api/users`): audited. */
  auditAs?: TrustedContext;
  /** A user created by a single sign-on. */
  sso?: UserRecord['sso'];
}

/**
 * Creates a user: claim the username, claim the e-mail (409 when either is taken, also
 * when registrations race), hash the password, insert the user with `user.created`. A
 * failure after a claim gives the claims back.
 */
export async function createAccount(
  deps: AuthDeps,
  account: NewAccount,
): Promise<{ user: UserRecord; events: Envelope[] }> {
  const userId = randomUUID();
  const held: Array<[ClaimKind, string]> = [];
  try {
    await claimOrFail(deps, 'username', account.username, userId);
    held.push(['username', account.username]);
    await claimOrFail(deps, 'email', account.email, userId);
    held.push(['email', account.email]);

    const now = new Date();
    const user: UserRecord = {
      _id: userId,
      username: account.username,
      email: account.email,
      passwordHash: await hashPassword(account.password),
      isSuperAdmin: account.isSuperAdmin,
      tokenVersion: 0,
      ...(account.sso ? { sso: account.sso } : {}),
      createdAt: now,
      updatedAt: now,
    };
    const events: Envelope[] = [deps.events.envelope('user.created', userSnapshot(user))];
    if (account.auditAs) {
      events.push(
        auditEnvelope(deps, account.auditAs, {
          action: 'user.created',
          targetType: 'user',
          targetId: userId,
          after: userSummary(user),
        }),
      );
    }
    await deps.users.insert(user, events);
    deps.events.publishSoon(deps.users.model, userId);
    return { user, events };
  } catch (err) {
    await releaseClaims(deps, held, userId);
    throw err;
  }
}

export async function claimOrFail(
  deps: AuthDeps,
  kind: ClaimKind,
  value: string,
  userId: string,
): Promise<void> {
  if (await deps.claims.claim(kind, value, userId)) return;
  throw kind === 'username' ? userErrors.usernameTaken() : userErrors.emailTaken();
}

/** Best effort: a claim left behind is taken over later (see claim.repository.ts). */
export async function releaseClaims(
  deps: AuthDeps,
  claims: ReadonlyArray<[ClaimKind, string]>,
  userId: string,
): Promise<void> {
  for (const [kind, value] of claims) {
    await deps.claims.release(kind, value, userId).catch((err: unknown) => {
      deps.logger.warn({ err, kind, userId }, 'could not release a claim; it will go stale');
    });
  }
}
