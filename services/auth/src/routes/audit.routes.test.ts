import { randomUUID } from 'node:crypto';
import type {
  AuditEntry,
  AuditPage,
  AuditVerifyResult,
  CreatedApiToken,
  EventOf,
} from '@aict/contracts';
import { auditModels } from '../data/audit.model';
import { auditRepository } from '../data/audit.repository';
import { appendAuditEvent, applyAuditRetention } from '../domain/audit-log';
import {
  as,
  freshIp,
  newWorkspaceId,
  registerUser,
  signedOut,
  startAuth,
  waitFor,
  type AuthKit,
} from '../test-support/auth-test-kit';

// The audit log (issue 17): administrative acts arrive as `audit.recorded` events through
// the outbox and are appended once each to a hash chain that verify checks link by link.

jest.setTimeout(60_000);

let kit: AuthKit;
beforeAll(async () => {
  kit = await startAuth();
}, 60_000);
afterAll(() => kit?.stop());

const superAdmin = () => as(randomUUID(), { sa: true });
const audit = () => auditRepository(auditModels(kit.service.deps.mongo!));
const entriesCollection = () => kit.service.deps.mongo!.collection('audit');

async function listAs(ctx: string, query = '') {
  return kit.call<AuditPage>('GET', `/api/audit${query}`, { ctx });
}

/** Waits until the super admin's list holds `count` entries matching the filter. */
async function entriesOf(query: string, count = 1): Promise<AuditEntry[]> {
  return waitFor(async () => {
    const { body } = await listAs(superAdmin(), query);
    return body.entries.length >= count ? body.entries : undefined;
  }, `${count} audit entries for ${query}`);
}

async function verify() {
  const answer = await kit.call<AuditVerifyResult>('GET', '/api/audit/verify', {
    ctx: superAdmin(),
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function createToken(userId: string, workspaceId: number) {
  const answer = await kit.call<CreatedApiToken>('POST', '/api/tokens', {
    ctx: as(userId, { roles: { [workspaceId]: 'user' } }),
    body: { name: 'nightly export', workspaceId, scopes: ['read-contents'], expiresInDays: 7 },
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

describe('the audit log', () => {
  it('when a member creates and revokes a token, then both acts are logged once, without the secret', async () => {
    const { user } = await registerUser(kit);
    const workspaceId = newWorkspaceId();
    const token = await createToken(user.id, workspaceId);
    const revoked = await kit.call('DELETE', `/api/tokens/${token.id}`, {
      ctx: as(user.id, { roles: { [workspaceId]: 'user' } }),
    });
    expect(revoked.status).toBe(204);

    const entries = await entriesOf(`?target=${token.id}`, 2);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a late duplicate would show now
    const { body } = await listAs(superAdmin(), `?target=${token.id}`);

    expect(body.entries.map((e) => e.action).sort()).toEqual([
      'api-token.created',
      'api-token.revoked',
    ]);
    expect(entries[0]).toMatchObject({ actorId: user.id, workspaceId, targetType: 'api-token' });
    expect(body.entries.find((e) => e.action === 'api-token.created')?.after).toMatchObject({
      name: 'nightly export',
      scopes: 'read-contents',
    });
    const stored = JSON.stringify(await entriesCollection().find({}).toArray());
    expect(stored).not.toContain(token.token);
    expect(stored).not.toContain(token.hint);
  });

  it('when someone signs in and someone fails to, then both are logged with the client address and never the password', async () => {
    const { user, password } = await registerUser(kit);
    const ip = freshIp();
    const ok = await kit.call('POST', '/api/login', {
      ctx: signedOut(ip),
      body: { username: user.username, password },
    });
    const failed = await kit.call('POST', '/api/login', {
      ctx: signedOut(ip),
      body: { username: user.username, password: 'wrong-password-123' },
    });
    expect([ok.status, failed.status]).toEqual([200, 401]);

    const entries = await entriesOf(`?actor=${user.username}`, 2);

    expect(entries.map((e) => [e.action, e.clientAddress]).sort()).toEqual([
      ['session.login', ip],
      ['session.login-failed', ip],
    ]);
    expect(entries.find((e) => e.action === 'session.login')?.actorId).toBe(user.id);
    expect(entries.find((e) => e.action === 'session.login-failed')?.actorId).toBeNull();
    const stored = JSON.stringify(await entriesCollection().find({}).toArray());
    expect(stored).not.toContain('wrong-password-123');
    expect(stored).not.toContain(password);
  });

  it('when the super admin edits a user, resets its password and deletes it, then each act is logged with its before and after', async () => {
    const { user } = await registerUser(kit);
    const sa = superAdmin();
    const newEmail = `renamed_${user.username}@example.com`;
    const edited = await kit.call('PUT', `/api/users/${user.id}`, {
      ctx: sa,
      body: { username: user.username, email: newEmail },
    });
    const reset = await kit.call('POST', `/api/users/${user.id}/reset-password`, {
      ctx: sa,
      body: { password: 'brand-new-secret-9' },
    });
    const deleted = await kit.call('DELETE', `/api/users/${user.id}`, { ctx: sa });
    expect([edited.status, reset.status, deleted.status]).toEqual([200, 204, 204]);

    const entries = await entriesOf(`?target=${user.id}&action=user.`, 3);
    const byAction = Object.fromEntries(entries.map((e) => [e.action, e]));

    expect(byAction['user.updated']).toMatchObject({
      before: { email: user.email },
      after: { email: newEmail },
    });
    expect(byAction['user.password-reset']?.after).toEqual({
      username: user.username,
      passwordChanged: true,
    });
    expect(byAction['user.deleted']?.before).toMatchObject({ username: user.username });
    const stored = JSON.stringify(await entriesCollection().find({}).toArray());
    expect(stored).not.toContain('brand-new-secret-9');
    expect(stored).not.toContain('passwordHash');
  });

  it('when an event is delivered twice, then it is appended once', async () => {
    const event = kit.service.deps.bus!.envelope('audit.recorded', {
      actorId: null,
      workspaceId: null,
      action: 'test.redelivered',
      targetType: 'test',
      targetId: randomUUID(),
      before: null,
      after: { note: 'twice' },
    }) as EventOf<'audit.recorded'>;

    await kit.service.deps.bus!.publishEnvelopes([event, event]);
    await entriesOf(`?target=${event.data.targetId}`);
    const again = await appendAuditEvent(audit(), event);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { body } = await listAs(superAdmin(), `?target=${event.data.targetId}`);

    expect(body.entries).toHaveLength(1);
    expect(again).toBe(body.entries[0]!.seq);
  });

  it('when the workspace service records an act, then the log holds it once with its actor and workspace', async () => {
    const workspaceId = newWorkspaceId();
    const actorId = randomUUID();
    const targetId = randomUUID();
    await kit.workspaceBus.publish('audit.recorded', {
      actorId,
      workspaceId,
      action: 'membership.changed',
      targetType: 'user',
      targetId,
      before: { role: null },
      after: { role: 'user' },
    });

    const [entry] = await entriesOf(`?target=${targetId}`);

    expect(entry).toMatchObject({ actorId, workspaceId, after: { role: 'user' } });
  });

  it('when a stored entry is changed or removed, then verify names the first broken link', async () => {
    const { user } = await registerUser(kit);
    const token = await createToken(user.id, newWorkspaceId());
    const [entry] = await entriesOf(`?target=${token.id}`);
    const collection = entriesCollection();
    const original = await collection.findOne({ _id: `audit:global@${entry!.seq}` } as never);
    expect(await verify()).toMatchObject({ ok: true, broken: null });

    await collection.updateOne({ _id: original!._id } as never, {
      $set: { actorId: randomUUID() },
    });
    const changed = await verify();
    await collection.replaceOne({ _id: original!._id } as never, original!);
    const restored = await verify();
    await collection.deleteOne({ _id: original!._id } as never);
    const removed = await verify();
    await collection.insertOne(original!);

    expect(changed).toMatchObject({
      ok: false,
      broken: { seq: entry!.seq, reason: 'entry changed' },
    });
    expect(restored).toMatchObject({ ok: true });
    expect(removed).toMatchObject({ ok: false, broken: { seq: entry!.seq } });
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('when a workspace admin reads the log, then they see their workspace only; members and other admins are refused', async () => {
    const { user: owner } = await registerUser(kit);
    const mine = newWorkspaceId();
    const theirs = newWorkspaceId();
    const myToken = await createToken(owner.id, mine);
    const theirToken = await createToken(owner.id, theirs);
    await entriesOf(`?target=${theirToken.id}`);
    await entriesOf(`?target=${myToken.id}`);
    const admin = as(randomUUID(), { roles: { [mine]: 'admin', [theirs]: 'user' } });

    const own = await listAs(admin, `?workspaceId=${mine}`);
    const other = await listAs(admin, `?workspaceId=${theirs}`);
    const none = await listAs(admin);
    const verifyAsAdmin = await kit.call('GET', '/api/audit/verify', { ctx: admin });

    expect(own.status).toBe(200);
    expect(own.body.entries.map((e) => e.targetId)).toContain(myToken.id);
    expect(own.body.entries.every((e) => e.workspaceId === mine)).toBe(true);
    expect([other.status, none.status, verifyAsAdmin.status]).toEqual([403, 403, 403]);
  });

  it('when an admin exports the log, then it is CSV with a header and their entries', async () => {
    const { user } = await registerUser(kit);
    const workspaceId = newWorkspaceId();
    const token = await createToken(user.id, workspaceId);
    await entriesOf(`?target=${token.id}`);
    const admin = as(randomUUID(), { roles: { [workspaceId]: 'admin' } });

    const res = await fetch(`${kit.url}/api/audit/export?workspaceId=${workspaceId}`, {
      headers: { 'x-aict-context': admin },
    });
    const csv = await res.text();

    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(csv.split('\r\n')[0]).toMatch(/^seq,at,actorId,actorName,workspaceId,action,/);
    expect(csv).toContain(`,api-token.created,api-token,${token.id},`);
  });

  it('when a page is asked with bad filters, then it answers 400, not 500', async () => {
    const answer = await listAs(superAdmin(), '?from=yesterday&limit=0');
    expect(answer.status).toBe(400);
  });

  it('when retention removes old entries, then the kept chain still verifies from its anchor', async () => {
    const { user } = await registerUser(kit);
    const old = await createToken(user.id, newWorkspaceId());
    await entriesOf(`?target=${old.id}`);
    const removed = await applyAuditRetention(audit(), 1, new Date(Date.now() + 2 * 86_400_000));
    const afterRetention = await verify();
    const token = await createToken(user.id, newWorkspaceId());
    await entriesOf(`?target=${token.id}`);

    expect(removed).toBeGreaterThan(0);
    expect(afterRetention).toMatchObject({ ok: true, checked: 0 });
    expect(await verify()).toMatchObject({ ok: true, checked: 1, anchor: afterRetention.anchor });
  });
});
