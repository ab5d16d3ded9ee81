// Development secrets, generated once per checkout into .data/secrets.json (git-ignored).
// Production takes them from the environment (see .env.example).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATA_DIR } from '../../infra/lib/paths.mjs';

/** ES256 (P-256) key pairs: jsonwebtoken signs and verifies them with KeyObjects. */
function ecKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }),
  };
}

export function devSecrets(file = join(DATA_DIR, 'secrets.json')) {
  if (existsSync(file)) return { ...JSON.parse(readFileSync(file, 'utf8')), created: false };
  const jwt = ecKeys();
  const context = ecKeys();
  const secrets = {
    JWT_PRIVATE_KEY: jwt.privatePem,
    JWT_PUBLIC_KEY: jwt.publicPem,
    CONTEXT_PRIVATE_KEY: context.privatePem,
    CONTEXT_PUBLIC_KEY: context.publicPem,
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SUPERADMIN_USERNAME: 'admin',
    SUPERADMIN_EMAIL: 'admin@example.com',
    SUPERADMIN_PASSWORD: randomBytes(12).toString('base64url'),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return { ...secrets, created: true };
}
