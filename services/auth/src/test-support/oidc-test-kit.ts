/**
 * Single sign-on test kit: a real OpenID Connect provider (oidc-test-provider.mjs, the
 * `oidc-provider` package) in a child process, and a browser-like walk through the
 * authorization code flow: fetch with redirects followed by hand and a cookie jar per site.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CONTEXT_HEADER } from '@aict/contracts';
import { signedOut, type AuthKit } from './auth-test-kit';

/** The callback address registered at the provider (the gateway's public URL, here fake). */
export const TEST_REDIRECT_URI = 'http://app.test/api/auth/oidc/callback';
export const TEST_CLIENT = { id: 'aict-test', secret: 'aict-test-secret-value' };

export interface ProviderAccount {
  email: string;
  preferred_username?: string;
  groups: string[];
}

export interface TestProvider {
  issuer: string;
  /** The auth service's OIDC_* environment for this provider. */
  env: Record<string, string>;
  setAccount(sub: string, account: ProviderAccount): Promise<void>;
  /** The account the next login at the provider signs in. */
  loginAs(sub: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestProvider(): Promise<TestProvider> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-test-provider.mjs')], {
    env: {
      ...process.env,
      CLIENT_ID: TEST_CLIENT.id,
      CLIENT_SECRET: TEST_CLIENT.secret,
      REDIRECT_URI: TEST_REDIRECT_URI,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /READY (\S+)/.exec(out);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the test provider exited (${code})`)));
  });
  child.stderr!.resume();
  const put = async (path: string, body: unknown) => {
    const res = await fetch(`${issuer}${path}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 204) throw new Error(`PUT ${path} answered ${res.status}`);
  };
  return {
    issuer,
    env: {
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      OIDC_REDIRECT_URI: TEST_REDIRECT_URI,
      OIDC_ALLOW_HTTP: 'true',
      OIDC_BUTTON_LABEL: 'Test IdP',
    },
    setAccount: (sub, account) => put(`/test/accounts/${encodeURIComponent(sub)}`, account),
    loginAs: (sub) => put('/test/login-as', { sub }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Cookies by name, as a browser keeps them for one site (paths ignored). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => {
        const [key = '', date = ''] = a.split('=');
        return key.trim().toLowerCase() === 'expires' && new Date(date).getTime() < Date.now();
      });
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface Answer {
  status: number;
  location: string | null;
  headers: Headers;
}

/** A GET to the auth service as the gateway forwards it (a signed-out context), with cookies. */
export async function callAuth(kit: AuthKit, pathAndQuery: string, jar: CookieJar, ip?: string) {
  const res = await fetch(`${kit.url}${pathAndQuery}`, {
    headers: { [CONTEXT_HEADER]: signedOut(ip), cookie: jar.header() },
    redirect: 'manual',
  });
  await res.arrayBuffer();
  jar.take(res.headers);
  return { status: res.status, location: res.headers.get('location'), headers: res.headers };
}

/**
 * Starts a sign-in at the auth service and follows the provider's redirects (login and
 * consent interactions included) until the provider sends the browser to the callback.
 * Returns the callback's path and query, not yet called.
 */
export async function walkToCallback(kit: AuthKit, app: CookieJar): Promise<string> {
  const start = await callAuth(kit, '/api/auth/oidc/login', app);
  if (start.status !== 302 || !start.location) throw new Error(`login answered ${start.status}`);
  return followProvider(start.location);
}

/** Follows the provider's redirects from `url` (a fresh browser) to the callback. */
export async function followProvider(url: string): Promise<string> {
  const provider = new CookieJar();
  let next = url;
  for (let hop = 0; hop < 15; hop += 1) {
    if (next.startsWith(TEST_REDIRECT_URI)) {
      const target = new URL(next);
      return `${target.pathname}${target.search}`;
    }
    const res = await fetch(next, { headers: { cookie: provider.header() }, redirect: 'manual' });
    const body = await res.text();
    provider.take(res.headers);
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status} at ${next}: ${body}`);
    next = new URL(location, next).href;
  }
  throw new Error('too many redirects at the provider');
}
