import { randomBytes } from 'node:crypto';
import { eventSchema, FIELD_LIMITS, type Role } from '@aict/contracts';
import { AppError, type Envelope } from '@aict/service-kit';
import type { UserRecord } from '../data/user.model';
import type { OidcClaims, PendingSignIn } from '../rpc/oidc.client';
import { applyMembershipChange } from './apply-membership-change';
import type { AuthDeps, SsoDeps } from './auth-deps';
import { createAccount } from './create-account';
import type { IssuedSession } from './session-tokens';
import type { UserView } from './user-view';

/** A single sign-on refused: the browser goes back to the sign-in page. */
export class SsoRefused extends Error {}

export interface SsoGrant {
  workspaceName: string;
  role: Role;
}

/** The `<prefix>:<workspace name>:admin|user` values of the roles claim (others ignored). */
export function grantsOf(claims: OidcClaims, sso: Pick<SsoDeps, 'rolesClaim' | 'rolesPrefix'>) {
  const raw = claims[sso.rolesClaim];
  const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const grants: SsoGrant[] = [];
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const parts = value.split(':');
    if (parts.length < 3 || parts[0] !== sso.rolesPrefix) continue;
    const role = parts.at(-1);
    const workspaceName = parts.slice(1, -1).join(':').trim();
    if ((role === 'admin' || role === 'user') && workspaceName)
      grants.push({ workspaceName, role });
  }
  return grants;
}

/**
 * The callback of a single sign-on: redeem the code (state, nonce and PKCE checked), find
 * or create the user of the provider's subject, make their memberships those of the roles
 * claim (a group removed at the provider is a membership removed now), issue a session.
 */
export async function finishSsoSignIn(
  deps: AuthDeps,
  sso: SsoDeps,
  query: string,
  pending: PendingSignIn,
): Promise<UserView & { session: IssuedSession; events: Envelope[] }> {
  let claims: OidcClaims;
  try {
    claims = await sso.client.finish(query, pending);
  } catch (err) {
    deps.logger.warn({ err }, 'single sign-on refused by the callback checks');
    throw new SsoRefused('the provider’s answer did not check out');
  }
  const { user, events } = await userOf(deps, sso, claims);

  const reply = await deps.workspace.syncSsoMemberships({
    userId: user._id,
    grants: grantsOf(claims, sso),
  });
  const changes = reply.events as unknown as Envelope[];
  // The read model learns it now rather than when the events arrive (applied once either way).
  for (const raw of changes) {
    const change = eventSchema('membership.changed').safeParse(raw);
    if (change.success) await applyMembershipChange(deps, change.data);
  }
  const session = deps.tokens.issue(user);
  return {
    user,
    roles: await deps.memberships.rolesOf(user._id),
    session,
    events: [...events, ...changes],
  };
}

async function userOf(
  deps: AuthDeps,
  sso: SsoDeps,
  claims: OidcClaims,
): Promise<{ user: UserRecord; events: Envelope[] }> {
  const linked = await sso.identities.userIdOf(claims.iss, claims.sub);
  const existing = linked ? await deps.users.findById(linked) : null;
  if (existing) return { user: existing, events: [] };

  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email) throw new SsoRefused('the provider gave no e-mail address');
  const preferred =
    typeof claims.preferred_username === 'string' ? claims.preferred_username.trim() : '';
  const base = (preferred || email.split('@')[0] || 'user').slice(0, FIELD_LIMITS.usernameMax - 5);
  // The name the provider prefers, else that name with a suffix when someone has it.
  const names = [base.padEnd(FIELD_LIMITS.usernameMin, '_')];
  for (let i = 0; i < 3; i += 1) names.push(`${base}-${randomBytes(2).toString('hex')}`);
  for (const username of names) {
    try {
      const created = await createAccount(deps, {
        username,
        email,
        // Nobody knows it: a password sign-in needs a reset by an administrator first.
        password: randomBytes(32).toString('base64url'),
        isSuperAdmin: false,
        sso: { issuer: claims.iss, subject: claims.sub },
      });
      await sso.identities.link(claims.iss, claims.sub, created.user._id);
      return created;
    } catch (err) {
      if (err instanceof AppError && err.code === 'USER.USERNAME_TAKEN') continue;
      if (err instanceof AppError && err.code === 'USER.EMAIL_TAKEN') {
        // Never joined to an account by its e-mail alone: its owner did not sign in here.
        throw new SsoRefused('the e-mail address belongs to another account');
      }
      throw err;
    }
  }
  throw new SsoRefused('no free username');
}
