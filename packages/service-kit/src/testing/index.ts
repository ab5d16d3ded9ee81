/**
 * Test helpers for the services (`@aict/service-kit/testing`): an environment that
 * points a service at the real local infrastructure with its own database, bucket and
 * the test vhost, so test files never share data.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { TrustedContext } from '@aict/contracts';
import { signContext } from '../http/trusted-context';

/** One ES256 key pair per test process: the gateway's signing key, as far as tests go. */
export const TEST_CONTEXT_KEYS = generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const TEST_CONTEXT_PUBLIC_PEM = TEST_CONTEXT_KEYS.publicKey
  .export({ type: 'spki', format: 'pem' })
  .toString();

/**
 * The `x-aict-context` header value a gateway would send for this caller, to call a
 * service directly in its tests: `{ 'x-aict-context': signTestContext({ uid: 'u1', roles: { 1: 'admin' } }) }`.
 */
export function signTestContext(
  claims: Partial<TrustedContext> & { roles?: Record<string | number, 'admin' | 'user'> } = {},
  expiresInSeconds = 60,
): string {
  const roles = Object.fromEntries(
    Object.entries(claims.roles ?? {}).map(([k, v]) => [String(k), v]),
  );
  const ws = claims.ws ?? null;
  const context: TrustedContext = {
    uid: claims.uid === undefined ? 'test-user' : claims.uid,
    sa: claims.sa ?? false,
    roles,
    ws,
    role: claims.role ?? (ws === null ? null : claims.sa ? 'admin' : (roles[String(ws)] ?? null)),
    rid: claims.rid ?? randomUUID(),
    ip: claims.ip ?? '127.0.0.1',
  };
  return signContext(TEST_CONTEXT_KEYS.privateKey, context, expiresInSeconds);
}

export const TEST_INFRA = {
  mongo: (process.env.TEST_MONGO_BASE_URL ?? 'mongodb://127.0.0.1:27017').replace(/\/$/, ''),
  amqp: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/aict-test',
  minio: {
    endpoint: process.env.TEST_MINIO_ENDPOINT ?? 'http://127.0.0.1:9000',
    accessKey: process.env.MINIO_ACCESS_KEY ?? 'aictminio',
    secretKey: process.env.MINIO_SECRET_KEY ?? 'aictminio-secret',
  },
};

/** A name no other test run uses: `auth_lx3k2a_9f1c`. */
export function uniqueTestName(prefix: string, separator = '_'): string {
  return [prefix, Date.now().toString(36), randomBytes(3).toString('hex')].join(separator);
}

/** Environment for one service under test: port 0, its own database and bucket. */
export function serviceTestEnv(
  service: string,
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const name = uniqueTestName(`t_${service}`);
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    MONGO_URL: `${TEST_INFRA.mongo}/${name}`,
    AMQP_URL: TEST_INFRA.amqp,
    MINIO_ENDPOINT: TEST_INFRA.minio.endpoint,
    MINIO_ACCESS_KEY: TEST_INFRA.minio.accessKey,
    MINIO_SECRET_KEY: TEST_INFRA.minio.secretKey,
    MINIO_BUCKET: name.replace(/_/g, '-'),
    CONTEXT_PUBLIC_KEY: TEST_CONTEXT_PUBLIC_PEM,
    // Outbox events a test leaves behind on purpose (a crash before the flush) are swept
    // within a second rather than the production minute.
    OUTBOX_SWEEP_MS: '1000',
    ...overrides,
  };
}

export { acquireSharedBrokerLock, createTestVhost } from './broker';
export { pngDeclaring } from './images';
export * from './harness';
export * from './route-table';
export * from './scans';
