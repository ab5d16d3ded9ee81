import { createHash } from 'node:crypto';
import {
  API_TOKEN_VERIFY_RPC,
  ApiTokenVerifyReply,
  type ApiToken,
  type CreatedApiToken,
  type TrustedContext,
} from '@aict/contracts';
import { signContext } from '@aict/service-kit';
import { TEST_CONTEXT_KEYS } from '@aict/service-kit/testing';
import {
  as,
  newWorkspaceId,
  registerUser,
  signedOut,
  startAuth,
  type AuthKit,
} from '../test-support/auth-test-kit';

// Personal API tokens (issue 17): a member creates tokens for a workspace of theirs, sees
// the secret once, lists and revokes them; the auth service stores only the hash and
// answers the gateways' `auth.api-token-verify` by it.

jest.setTimeout(30_000);

let kit: AuthKit;
const logLines: string[] = [];

beforeAll(async () => {
  kit = await startAuth({ LOG_LEVEL: 'debug' }, undefined, {
    write: (line: string) => void logLines.push(line),
  });
}, 60_000);
afterAll(() => kit?.stop());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const verify = (hash: string) =>
  kit.workspaceBus.request(
    API_TOKEN_VERIFY_RPC,
    { hash },
    { schema: ApiTokenVerifyReply, timeoutMs: 5000 },
  );

/** A member of a fresh workspace, with the context the gateway would sign for them. */
async function member() {
  const { user } = await registerUser(kit);
  const workspaceId = newWorkspaceId();
  return { user, workspaceId, ctx: as(user.id, { roles: { [workspaceId]: 'user' } }) };
}

function buildTokenBody(workspaceId: number, overrides: Record<string, unknown> = {}) {
  return { name: 'CI script', workspaceId, scopes: ['generate'], expiresInDays: 30, ...overrides };
}

async function createToken(ctx: string, body: Record<string, unknown>) {
  const answer = await kit.call<CreatedApiToken>('POST', '/api/tokens', { ctx, body });
  if (answer.status !== 201) throw new Error(`create answered ${answer.status}`);
  return answer.body;
}

describe('POST /api/tokens', () => {
  it('when a member creates a token, then it answers the secret once, with its scopes, workspace and expiry', async () => {
    const { workspaceId, ctx } = await member();
    const before = Date.now();

    const answer = await kit.call<CreatedApiToken>('POST', '/api/tokens', {
      ctx,
      body: buildTokenBody(workspaceId, { scopes: ['generate', 'read-contents'] }),
    });

    expect(answer.status).toBe(201);
    expect(answer.body.token).toMatch(/^aict_[A-Za-z0-9_-]{43}$/);
    expect(answer.body).toMatchObject({
      name: 'CI script',
      workspaceId,
      scopes: ['generate', 'read-contents'],
      hint: answer.body.token.slice(0, 9),
      lastUsedAt: null,
    });
    const days = (Date.parse(answer.body.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
  });

  it('when the token is stored, then the database holds the hash of the secret and never the secret', async () => {
    const { workspaceId, ctx } = await member();

    const created = await createToken(ctx, buildTokenBody(workspaceId));

    const stored = await kit.service.deps
      .mongo!.collection('api_tokens')
      .findOne({ tokenId: created.id });
    expect(stored?._id).toBe(sha256(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);
    expect(JSON.stringify(stored)).not.toContain(created.token.slice(9));
  });

  it('when the workspace is not one of the caller’s, then it answers 403 and creates nothing', async () => {
    const { user, ctx } = await member();
    const other = newWorkspaceId();

    const answer = await kit.call('POST', '/api/tokens', { ctx, body: buildTokenBody(other) });
    const list = await kit.call<ApiToken[]>('GET', '/api/tokens', { ctx: as(user.id) });

    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'WORKSPACE.FORBIDDEN' });
    expect(list.body).toEqual([]);
  });

  it('when the body is wrong (no name, no scope, unknown scope, expiry out of range), then it answers 400', async () => {
    const { workspaceId, ctx } = await member();
    const bodies = [
      buildTokenBody(workspaceId, { name: '  ' }),
      buildTokenBody(workspaceId, { scopes: [] }),
      buildTokenBody(workspaceId, { scopes: ['admin'] }),
      buildTokenBody(workspaceId, { expiresInDays: 0 }),
      buildTokenBody(workspaceId, { expiresInDays: 366 }),
      undefined,
    ];
    for (const body of bodies) {
      const answer = await kit.call('POST', '/api/tokens', { ctx, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION.FAILED' });
    }
  });

  it('when nobody is signed in, or the request was itself made with a token, then it is refused', async () => {
    const { user, workspaceId } = await member();
    const withToken = signContext(
      TEST_CONTEXT_KEYS.privateKey,
      {
        uid: user.id,
        sa: false,
        roles: { [String(workspaceId)]: 'user' },
        ws: workspaceId,
        role: 'user',
        rid: 'r1',
        ip: '127.0.0.1',
        tok: 'some-token',
      } satisfies TrustedContext,
      60,
    );

    const signedOutAnswer = await kit.call('POST', '/api/tokens', {
      ctx: signedOut(),
      body: buildTokenBody(workspaceId),
    });
    const tokenAnswer = await kit.call('POST', '/api/tokens', {
      ctx: withToken,
      body: buildTokenBody(workspaceId),
    });

    expect(signedOutAnswer.status).toBe(401);
    expect(tokenAnswer.status).toBe(403);
  });
});

describe('GET /api/tokens', () => {
  it('when a user lists tokens, then they see their own, newest first, without secret or hash', async () => {
    const { user, workspaceId, ctx } = await member();
    const someoneElse = await member();
    const first = await createToken(ctx, buildTokenBody(workspaceId, { name: 'first' }));
    const second = await createToken(ctx, buildTokenBody(workspaceId, { name: 'second' }));
    await createToken(someoneElse.ctx, buildTokenBody(someoneElse.workspaceId));

    const answer = await kit.call<ApiToken[]>('GET', '/api/tokens', { ctx: as(user.id) });

    expect(answer.status).toBe(200);
    expect(answer.body.map((t) => t.name)).toEqual(['second', 'first']);
    const text = JSON.stringify(answer.body);
    for (const created of [first, second]) {
      expect(text).not.toContain(created.token);
      expect(text).not.toContain(sha256(created.token));
    }
    expect(answer.body[0]).not.toHaveProperty('token');
  });
});

describe('DELETE /api/tokens/:id', () => {
  it('when the owner revokes a token, then it leaves the list, the gateway is told, and a lookup finds nothing', async () => {
    const { user, workspaceId, ctx } = await member();
    const created = await createToken(ctx, buildTokenBody(workspaceId));

    const answer = await kit.call('DELETE', `/api/tokens/${created.id}`, { ctx: as(user.id) });
    const list = await kit.call<ApiToken[]>('GET', '/api/tokens', { ctx: as(user.id) });
    const event = await kit.authEvents.find(
      (e) =>
        e.type === 'api-token.revoked' && (e.data as { tokenId: string }).tokenId === created.id,
    );

    expect(answer.status).toBe(204);
    expect(answer.headers.get('x-aict-identity-events')).toBeTruthy();
    expect(list.body).toEqual([]);
    expect(event.data).toEqual({
      tokenId: created.id,
      userId: user.id,
      expiresAt: created.expiresAt,
    });
    expect(await verify(sha256(created.token))).toEqual({ token: null });
  });

  it('when another user or a second revocation names the token, then it answers 404 and changes nothing', async () => {
    const owner = await member();
    const other = await member();
    const created = await createToken(owner.ctx, buildTokenBody(owner.workspaceId));

    const byOther = await kit.call('DELETE', `/api/tokens/${created.id}`, {
      ctx: as(other.user.id),
    });
    const stillValid = await verify(sha256(created.token));
    await kit.call('DELETE', `/api/tokens/${created.id}`, { ctx: as(owner.user.id) });
    const again = await kit.call('DELETE', `/api/tokens/${created.id}`, {
      ctx: as(owner.user.id),
    });

    expect(byOther.status).toBe(404);
    expect(stillValid.token?.id).toBe(created.id);
    expect(again.status).toBe(404);
  });
});

describe('auth.api-token-verify', () => {
  it('when a gateway asks by the hash of a valid secret, then it gets the token and its use is recorded', async () => {
    const { user, workspaceId, ctx } = await member();
    const created = await createToken(
      ctx,
      buildTokenBody(workspaceId, { scopes: ['read-contents'] }),
    );

    const reply = await verify(sha256(created.token));
    const list = await kit.call<ApiToken[]>('GET', '/api/tokens', { ctx: as(user.id) });

    expect(reply.token).toEqual({
      id: created.id,
      userId: user.id,
      workspaceId,
      scopes: ['read-contents'],
      expiresAt: created.expiresAt,
    });
    expect(list.body[0]?.lastUsedAt).not.toBeNull();
  });

  it('when the token has expired or the hash is unknown, then the answer is null', async () => {
    const { workspaceId, ctx } = await member();
    const created = await createToken(ctx, buildTokenBody(workspaceId));
    const tokens = kit.service.deps.mongo!.collection('api_tokens');
    // The outbox relay rewrites the document once it has published the creation (an update is
    // read-modify-write on FerretDB and would undo ours): expire the token after that.
    for (let i = 0; i < 200; i++) {
      const stored = await tokens.findOne({ tokenId: created.id });
      if (!(stored?._outbox as unknown[] | undefined)?.length) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await tokens.updateOne(
      { tokenId: created.id },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );

    expect(await verify(sha256(created.token))).toEqual({ token: null });
    expect(await verify(sha256('aict_unknown'))).toEqual({ token: null });
  });
});

describe('logs', () => {
  it('when a token is created, listed, looked up and revoked, then no log line holds the secret', async () => {
    const { user, workspaceId, ctx } = await member();
    const created = await createToken(ctx, buildTokenBody(workspaceId));
    await kit.call('GET', '/api/tokens', { ctx: as(user.id) });
    await verify(sha256(created.token));
    await kit.call('DELETE', `/api/tokens/${created.id}`, { ctx: as(user.id) });
    await kit.authEvents.find(
      (e) =>
        e.type === 'api-token.revoked' && (e.data as { tokenId: string }).tokenId === created.id,
    );

    const logs = logLines.join('');
    expect(logs).toContain(created.id);
    expect(logs).not.toContain(created.token);
    expect(logs).not.toContain(created.token.slice(5));
  });
});
