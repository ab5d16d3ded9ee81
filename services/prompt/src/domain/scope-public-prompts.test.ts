import { randomUUID } from 'node:crypto';
import { CONTEXT_HEADER, IDENTITY_SNAPSHOT_RPC, IdentitySnapshotRequest } from '@aict/contracts';
import { createBus, createLogger, type Bus } from '@aict/service-kit';
import { signTestContext } from '@aict/service-kit/testing';
import type { PromptRecord } from '../data/prompt.model';
import { start } from '../main';
import {
  adminOf,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';

// Hardening issue, item 3: public prompts written before the rule (a workspace admin could
// publish to every workspace) are made workspace-scoped at start-up, once; the super
// admin's stay published.

jest.setTimeout(60_000);

let h: Harness;
let auth: Bus;
const superAdminId = `sa-${randomUUID()}`;
const workspaceAdminId = `u-${randomUUID()}`;

beforeAll(async () => {
  h = await startHarness();
  auth = await serveIdentitySnapshot();
});
afterAll(async () => {
  await auth?.close();
  await h?.stop();
});

/** The auth service's answer: who is a super administrator. */
async function serveIdentitySnapshot(): Promise<Bus> {
  const bus = await createBus({
    url: h.env.AMQP_URL!,
    service: 'auth',
    logger: createLogger('auth-test', { level: 'silent' }),
  });
  await bus.serve(IDENTITY_SNAPSHOT_RPC, IdentitySnapshotRequest.nullish(), () => ({
    users: [
      { id: superAdminId, tokenVersion: 0, isSuperAdmin: true },
      { id: workspaceAdminId, tokenVersion: 0, isSuperAdmin: false },
    ],
    revokedSessions: [],
  }));
  return bus;
}

const prompts = () => h.db.collection<PromptRecord>('prompts');

function legacyPrompt(overrides: Partial<PromptRecord>): PromptRecord {
  const at = new Date(Date.now() - 86_400_000);
  return {
    _id: randomUUID(),
    workspaceId: newWorkspaceId(),
    userId: workspaceAdminId,
    name: 'Legacy',
    template: 'Legacy secret about {topic}',
    variables: ['topic'],
    category: 'Business',
    contentType: 'text',
    model: 'gpt-4o',
    isPublic: true,
    rev: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/** An old database: legacy public prompts, no migration done yet, summaries rebuilt from them. */
async function seedLegacyData() {
  const fromWorkspaceAdmin = legacyPrompt({ name: 'By a workspace admin' });
  const fromSuperAdmin = legacyPrompt({ name: 'By the super admin', userId: superAdminId });
  const privateOne = legacyPrompt({ name: 'Private', isPublic: false });
  await prompts().insertMany([fromWorkspaceAdmin, fromSuperAdmin, privateOne]);
  await h.db.collection('prompt_summaries').deleteMany({});
  await h.db.collection<{ _id: string }>('prompt_migrations').deleteMany({});
  return { fromWorkspaceAdmin, fromSuperAdmin, privateOne };
}

/** Starts another instance of the service on the same database and broker (a deploy). */
async function restart() {
  const service = await start({ env: h.env, exit: () => {} });
  return {
    async call(path: string, as: NonNullable<Caller>) {
      const res = await fetch(`${service.http.url}${path}`, {
        headers: { [CONTEXT_HEADER]: signTestContext(as) },
      });
      return { status: res.status, body: await res.json() };
    },
    stop: () => service.shutdown('test done'),
  };
}

describe('scoping legacy public prompts at start-up', () => {
  it("when the service starts on a database where workspace admins published prompts, then theirs stay in their workspace and the super admin's stay public", async () => {
    const { fromWorkspaceAdmin, fromSuperAdmin } = await seedLegacyData();
    const elsewhere = newWorkspaceId();

    const service = await restart();
    try {
      const listed = await service.call(
        `/api/prompts?workspaceId=${elsewhere}`,
        userOf(elsewhere)!,
      );
      const detail = await service.call(
        `/api/prompts/${fromWorkspaceAdmin._id}?workspaceId=${elsewhere}`,
        adminOf(elsewhere)!,
      );
      const atHome = await service.call(
        `/api/prompts?workspaceId=${fromWorkspaceAdmin.workspaceId}`,
        userOf(fromWorkspaceAdmin.workspaceId)!,
      );

      const ids = (listed.body as Array<{ id: string }>).map((p) => p.id);
      expect(ids).not.toContain(fromWorkspaceAdmin._id);
      expect(ids).toContain(fromSuperAdmin._id);
      expect(detail.status).toBe(404);
      expect(JSON.stringify(detail.body)).not.toContain('Legacy secret');
      expect(atHome.body).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: fromWorkspaceAdmin._id, isPublic: false }),
        ]),
      );
    } finally {
      await service.stop();
    }
    const event = await h.waitForEvent(
      (e) =>
        e.type === 'prompt.updated' &&
        (e.data as { promptId: string }).promptId === fromWorkspaceAdmin._id,
    );
    expect(event.data).toMatchObject({ isPublic: false });
  });

  it('when the service starts again, then nothing changes a second time', async () => {
    const { fromWorkspaceAdmin, fromSuperAdmin, privateOne } = await seedLegacyData();
    const first = await restart();
    await first.stop();
    const after = await prompts()
      .find({ _id: { $in: [fromWorkspaceAdmin._id, fromSuperAdmin._id, privateOne._id] } })
      .toArray();

    const second = await restart();
    await second.stop();

    const again = await prompts()
      .find({ _id: { $in: [fromWorkspaceAdmin._id, fromSuperAdmin._id, privateOne._id] } })
      .toArray();
    const byId = (docs: PromptRecord[]) =>
      Object.fromEntries(docs.map((doc) => [doc._id, { isPublic: doc.isPublic, rev: doc.rev }]));
    expect(byId(again)).toEqual(byId(after));
    expect(byId(after)).toEqual({
      [fromWorkspaceAdmin._id]: { isPublic: false, rev: 2 },
      [fromSuperAdmin._id]: { isPublic: true, rev: 1 },
      [privateOne._id]: { isPublic: false, rev: 1 },
    });
    const list = await h.call(`GET`, `/api/prompts?workspaceId=${newWorkspaceId()}`, {
      as: superAdmin(),
    });
    expect((list.body as Array<{ id: string }>).map((p) => p.id)).not.toContain(
      fromWorkspaceAdmin._id,
    );
  });

  it('when the auth service does not answer at start-up, then no public prompt crosses a workspace meanwhile', async () => {
    const { fromWorkspaceAdmin, fromSuperAdmin } = await seedLegacyData();
    await auth.close();
    const elsewhere = newWorkspaceId();

    const service = await restart();
    try {
      const listed = await service.call(
        `/api/prompts?workspaceId=${elsewhere}`,
        adminOf(elsewhere)!,
      );
      const detail = await service.call(
        `/api/prompts/${fromWorkspaceAdmin._id}?workspaceId=${elsewhere}`,
        adminOf(elsewhere)!,
      );

      const ids = (listed.body as Array<{ id: string }>).map((p) => p.id);
      expect(ids).not.toContain(fromWorkspaceAdmin._id);
      expect(ids).not.toContain(fromSuperAdmin._id);
      expect(detail.status).toBe(404);
    } finally {
      await service.stop();
      auth = await serveIdentitySnapshot();
    }
  });
});
