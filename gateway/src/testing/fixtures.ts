/**
 * Test fixtures of the gateway (not built into dist): key pairs, session tokens as the
 * auth service issues them, a RabbitMQ vhost of the test's own, the two snapshot
 * request/replies served from the test over a real bus, and small real upstreams.
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import {
  EVENTS,
  IDENTITY_SNAPSHOT_RPC,
  MEMBERSHIPS_SNAPSHOT_RPC,
  SESSION_TOKEN_TYPE,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  type IdentitySnapshot,
  type MembershipsSnapshot,
} from '@aict/contracts';
import { createBus, createLogger, keyIdOf } from '@aict/service-kit';
import { createTestVhost, TEST_CONTEXT_KEYS } from '@aict/service-kit/testing';
import { start } from '../main';

/** The auth service's signing keys, as far as these tests go. */
export const SESSION_KEYS = generateKeyPairSync('ec', { namedCurve: 'P-256' });
/** Someone else's P-256 keys: what a forger would sign with. */
export const FORGER_KEYS = generateKeyPairSync('ec', { namedCurve: 'P-256' });

export function pem(key: KeyObject): string {
  return key
    .export(
      key.type === 'private' ? { type: 'pkcs8', format: 'pem' } : { type: 'spki', format: 'pem' },
    )
    .toString();
}

export interface SessionTokenOptions {
  key?: KeyObject | string;
  algorithm?: jwt.Algorithm;
  /** Seconds; default 12 h. Negative: already expired. */
  expiresIn?: number;
  issuer?: string;
  audience?: string;
  /** Seconds since the epoch; default now. Null: no `iat` claim. */
  iat?: number | null;
  /** Header members to set (undefined removes one), e.g. `{ kid: 'other' }`. */
  header?: Record<string, unknown>;
}

/** A session token like the auth service's (ES256, issuer, audience, 12 h), or a variant. */
export function sessionToken(
  claims: { sub: string; sid?: string; tv?: number },
  options: SessionTokenOptions = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const key = options.key ?? SESSION_KEYS.privateKey;
  const iat = options.iat === undefined ? now : options.iat;
  const algorithm = options.algorithm ?? 'ES256';
  return jwt.sign(
    {
      sub: claims.sub,
      sid: claims.sid ?? randomUUID(),
      tv: claims.tv ?? 0,
      ...(iat === null ? {} : { iat }),
      exp: (iat ?? now) + (options.expiresIn ?? 12 * 3600),
    },
    key,
    {
      algorithm,
      issuer: options.issuer ?? TOKEN_ISSUER,
      audience: options.audience ?? TOKEN_AUDIENCE,
      noTimestamp: iat === null,
      header: {
        alg: algorithm,
        typ: SESSION_TOKEN_TYPE,
        ...(typeof key === 'string' ? {} : { kid: keyIdOf(key) }),
        ...options.header,
      } as jwt.JwtHeader,
    },
  );
}

/** A vhost of this test file alone: the snapshot RPC queues are shared by name otherwise. */
export async function isolatedVhost(): Promise<{ url: string; dispose: () => Promise<void> }> {
  const { url, remove } = await createTestVhost('aict-test-gw');
  return { url, dispose: remove };
}

export interface IdentityData {
  identity: IdentitySnapshot;
  memberships: MembershipsSnapshot;
}

/**
 * The auth and workspace services as the gateway sees them on RabbitMQ: each a real bus
 * (publishing on `aict.auth.events` / `aict.workspace.events`) answering its snapshot
 * request from `data`, which a test may change.
 */
export async function identityServices(amqpUrl: string, data: IdentityData) {
  const logger = createLogger('gateway-test', { level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const auth = await createBus({ url: amqpUrl, service: 'auth', logger, schemas: EVENTS });
  const workspace = await createBus({
    url: amqpUrl,
    service: 'workspace',
    logger,
    schemas: EVENTS,
  });
  const asked = { identity: 0, memberships: 0 };
  const closers: Array<() => Promise<void>> = [];
  return {
    auth,
    workspace,
    data,
    asked,
    /** Starts answering the two snapshot requests. */
    async serve() {
      const a = await auth.serve(IDENTITY_SNAPSHOT_RPC, z.object({}).loose(), () => {
        asked.identity++;
        return data.identity;
      });
      const w = await workspace.serve(MEMBERSHIPS_SNAPSHOT_RPC, z.object({}).loose(), () => {
        asked.memberships++;
        return data.memberships;
      });
      closers.push(a.close, w.close);
    },
    /** Stops answering them (requests wait in their queues, as when a service is down). */
    async stopServing() {
      for (const close of closers.splice(0)) await close();
    },
    async close() {
      for (const close of closers) await close();
      await Promise.all([auth.close(), workspace.close()]);
    },
  };
}

export type UpstreamHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A real HTTP server standing in for a service: by default it answers with what it
 * received (method, url, headers); `on(path, handler)` makes one path behave otherwise.
 * `requests` lists everything that reached it.
 */
export async function upstream() {
  const handlers = new Map<string, UpstreamHandler>();
  const requests: Seen[] = [];
  const server = http.createServer((req, res) => {
    const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    requests.push(seen);
    const handler = handlers.get((req.url ?? '').split('?')[0] ?? '');
    if (handler) return handler(req, res);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(seen));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    on(path: string, handler: UpstreamHandler) {
      handlers.set(path, handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function frontendFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-static-'));
  mkdirSync(join(dir, 'shell', 'dist'), { recursive: true });
  writeFileSync(join(dir, 'shell', 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
  return dir;
}

/** The gateway on port 0 with the test keys; every service URL defaults to `serviceUrl`. */
export function startGateway(
  env: Record<string, string> & { AMQP_URL: string; serviceUrl: string; STATIC_DIR: string },
  /** Where the gateway's JSON log lines go (a test that reads them). */
  logDestination?: { write(line: string): void },
) {
  const { serviceUrl, ...rest } = env;
  return start({
    exit: () => {},
    logDestination,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PORT: '0',
      AUTH_SERVICE_URL: serviceUrl,
      WORKSPACE_SERVICE_URL: serviceUrl,
      PROMPT_SERVICE_URL: serviceUrl,
      CONTENT_SERVICE_URL: serviceUrl,
      GENERATION_SERVICE_URL: serviceUrl,
      JWT_PUBLIC_KEY: pem(SESSION_KEYS.publicKey),
      CONTEXT_PRIVATE_KEY: pem(TEST_CONTEXT_KEYS.privateKey),
      ...rest,
    },
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Waits until the gateway's /readyz says ready. */
export function waitUntilReady(gatewayUrl: string, timeoutMs = 10_000) {
  return waitFor(
    async () => (await fetch(`${gatewayUrl}/readyz`)).status === 200,
    timeoutMs,
    'the gateway to be ready',
  );
}
