import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Passwords are stored as `scrypt$N$r$p$<salt>$<hash>` (base64url): memory-hard, a salt
// per user, the parameters kept with each hash so they can be raised later.

const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** scrypt needs 128·N·r bytes (32 MiB here); node's default ceiling is 32 MiB exactly. */
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...cost, maxmem: MAX_MEMORY },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return [
    'scrypt',
    COST.N,
    COST.r,
    COST.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

function parse(stored: string) {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    scheme === 'scrypt' &&
    Number.isInteger(cost.N) &&
    cost.N >= 2 &&
    cost.N <= 2 ** 17 &&
    Number.isInteger(cost.r) &&
    cost.r >= 1 &&
    cost.r <= 16 &&
    Number.isInteger(cost.p) &&
    cost.p >= 1 &&
    cost.p <= 4 &&
    salt &&
    key;
  if (!sane) return null;
  return { cost, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** Constant-time comparison of `password` with a stored hash; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) {
    await burnTime(password);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.cost);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time a real verification takes, for an unknown user, so that an unknown user
 * and a wrong password cannot be told apart by timing. Always false.
 */
export async function burnTime(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(12).toString('base64url'));
  await verifyPassword(password, await dummyHash);
  return false;
}
