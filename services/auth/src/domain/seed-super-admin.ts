import { isAppError } from '@aict/service-kit';
import type { AuthDeps } from './auth-deps';
import { createAccount } from './create-account';

const SEED_RACE_WAIT_MS = 5_000;

export interface SuperAdminSeed {
  username: string;
  email: string;
  password: string;
}

/**
 * At start-up: creates the super administrator from the environment when no super
 * administrator exists (the first start, or every one was removed). Runs before the HTTP
 * server listens, so nobody can register the name first. Two replicas starting at once
 * race on the username claim: one creates it, the other finds it taken.
 */
export async function seedSuperAdmin(
  deps: AuthDeps,
  seed: SuperAdminSeed,
): Promise<'created' | 'exists' | 'name-taken'> {
  if (await deps.users.findAnySuperAdmin()) return 'exists';
  try {
    const { user } = await createAccount(deps, {
      username: seed.username,
      email: seed.email.trim().toLowerCase(),
      password: seed.password,
      isSuperAdmin: true,
    });
    deps.logger.info({ userId: user._id, username: user.username }, 'super administrator created');
    return 'created';
  } catch (err) {
    if (!isAppError(err) || err.status !== 409) throw err;
    // Another replica may hold the claims and still be hashing: give it time to finish.
    for (let waited = 0; waited < SEED_RACE_WAIT_MS; waited += 250) {
      if (await deps.users.findAnySuperAdmin()) return 'exists';
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    deps.logger.error(
      { username: seed.username },
      'no super administrator exists and the SUPERADMIN_USERNAME or SUPERADMIN_EMAIL is taken by another user; none was created',
    );
    return 'name-taken';
  }
}
