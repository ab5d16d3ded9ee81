import { randomUUID } from 'node:crypto';
import { EVENTS, type AuditAct, type AuditPage, type AuditVerifyResult } from '@aict/contracts';
import { createBus, createLogger, type Bus } from '@aict/service-kit';
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

// The audit log (issue 17) of the acts other services own: default models (workspace
// service), prompts and the default prompt (prompt service), budgets, caps, rate limits and
// prices (generation service). Each service publishes `audit.recorded` on its own exchange;
// the auth service appends each event once. And whose entries who reads: the super admin
// the whole platform whatever workspace is in view, a workspace admin their workspace only.

jest.setTimeout(60_000);

let kit: AuthKit;
const buses: Partial<Record<'prompt' | 'generation', Bus>> = {};

beforeAll(async () => {
  kit = await startAuth();
  for (const service of ['prompt', 'generation'] as const) {
    buses[service] = await createBus({
      url: kit.vhost.url,
      service,
      logger: createLogger('test', { level: 'silent' }),
      schemas: EVENTS,
    });
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(buses).map((bus) => bus.close()));
  await kit?.stop();
});

const superAdmin = (ws: number | null = null) => as(randomUUID(), { sa: true, ws });

const list = (ctx: string, query = '') => kit.call<AuditPage>('GET', `/api/audit${query}`, { ctx });

/** Waits until the super admin's whole log holds `count` entries for the target. */
async function entriesFor(targetId: string, count = 1) {
  return waitFor(async () => {
    const { body } = await list(superAdmin(), `?scope=platform&target=${targetId}`);
    return body.entries.length >= count ? body.entries : undefined;
  }, `${count} audit entries of ${targetId}`);
}

/** Publishes the act's event twice (a redelivery), as the owning service's outbox may. */
async function recordTwice(bus: Bus, act: AuditAct) {
  const event = bus.envelope('audit.recorded', act);
  await bus.publishEnvelopes([event]);
  await bus.publishEnvelopes([event]);
  return event;
}

const settleDuplicates = () => new Promise((resolve) => setTimeout(resolve, 700));

describe('acts of the other services in the audit log', () => {
  const cases: {
    service: 'workspace' | 'prompt' | 'generation';
    act: Omit<AuditAct, 'targetId'>;
  }[] = [
    {
      service: 'workspace',
      act: {
        actorId: randomUUID(),
        workspaceId: newWorkspaceId(),
        action: 'settings.default-model-changed',
        targetType: 'setting',
        before: { default_text_model: 'gpt-4o' },
        after: { default_text_model: 'gpt-4-turbo' },
      },
    },
    {
      service: 'prompt',
      act: {
        actorId: randomUUID(),
        workspaceId: newWorkspaceId(),
        action: 'prompt.updated',
        targetType: 'prompt',
        before: { name: 'Old name' },
        after: { name: 'New name' },
      },
    },
    {
      service: 'prompt',
      act: {
        actorId: randomUUID(),
        workspaceId: newWorkspaceId(),
        action: 'prompt.default-changed',
        targetType: 'workspace',
        before: { defaultPromptId: null },
        after: { defaultPromptId: randomUUID() },
      },
    },
    {
      service: 'generation',
      act: {
        actorId: randomUUID(),
        workspaceId: newWorkspaceId(),
        action: 'usage.budget-changed',
        targetType: 'workspace',
        before: { monthlyBudgetMicros: null },
        after: { monthlyBudgetMicros: 5_000_000 },
      },
    },
  ];

  it.each(cases)(
    'when the $service service records $act.action twice, then it is appended once, the workspace admin sees it and an admin of another workspace does not',
    async ({ service, act }) => {
      const targetId = randomUUID();
      const bus = service === 'workspace' ? kit.workspaceBus : buses[service]!;
      await recordTwice(bus, { ...act, targetId, clientAddress: '10.1.2.3' });

      const [entry] = await entriesFor(targetId);
      await settleDuplicates();
      const admin = as(randomUUID(), {
        roles: { [act.workspaceId!]: 'admin' },
        ws: act.workspaceId,
      });
      const other = newWorkspaceId();
      const otherAdmin = as(randomUUID(), { roles: { [other]: 'admin' }, ws: other });

      const all = await list(superAdmin(), `?scope=platform&target=${targetId}`);
      const own = await list(admin, `?target=${targetId}`);
      const foreign = await list(otherAdmin, `?target=${targetId}`);
      const foreignAsking = await list(otherAdmin, `?workspaceId=${act.workspaceId}`);

      expect(all.body.entries).toHaveLength(1);
      expect(entry).toMatchObject({
        actorId: act.actorId,
        workspaceId: act.workspaceId,
        action: act.action,
        before: act.before,
        after: act.after,
        clientAddress: '10.1.2.3',
      });
      expect(own.body.entries.map((e) => e.targetId)).toEqual([targetId]);
      expect(foreign.status).toBe(200);
      expect(foreign.body.entries).toEqual([]);
      expect(foreignAsking.status).toBe(403);
    },
  );

  it('when a price change arrives from the generation service, then it is a platform entry only the super admin reads, and verify still passes', async () => {
    const model = `model-${randomUUID().slice(0, 8)}`;
    await recordTwice(buses.generation!, {
      actorId: randomUUID(),
      workspaceId: null,
      action: 'usage.price-changed',
      targetType: 'model',
      targetId: model,
      before: { version: 0, inputPerMillion: 500_000 },
      after: { version: 1, inputPerMillion: 600_000 },
    });
    await entriesFor(model);
    await settleDuplicates();
    const workspaceId = newWorkspaceId();

    const platform = await list(superAdmin(workspaceId), `?scope=platform&target=${model}`);
    const asAdmin = await list(
      as(randomUUID(), { roles: { [workspaceId]: 'admin' }, ws: workspaceId }),
      `?scope=platform`,
    );
    const verify = await kit.call<AuditVerifyResult>('GET', '/api/audit/verify', {
      ctx: superAdmin(),
    });

    expect(platform.body.entries.map((e) => [e.action, e.workspaceId])).toEqual([
      ['usage.price-changed', null],
    ]);
    expect(asAdmin.status).toBe(403);
    expect(verify.body).toMatchObject({ ok: true, broken: null });
    expect(verify.body.checked).toBeGreaterThanOrEqual(cases.length + 1);
  });
});

describe('whose entries the audit screen reads', () => {
  it('when the super admin has a workspace in view and asks for the platform, then sign-ins show; for the workspace alone they do not', async () => {
    const { user, password } = await registerUser(kit);
    const signedIn = await kit.call('POST', '/api/login', {
      ctx: signedOut(freshIp()),
      body: { username: user.username, password },
    });
    expect(signedIn.status).toBe(200);
    const workspaceId = newWorkspaceId();
    const sa = superAdmin(workspaceId);

    await waitFor(async () => {
      const { body } = await list(sa, `?scope=platform&actor=${user.username}`);
      return body.entries.some((e) => e.action === 'session.login');
    }, 'the sign-in on the platform view');
    const workspaceOnly = await list(sa, `?actor=${user.username}`);
    const named = await list(sa, `?scope=workspace&workspaceId=${workspaceId}`);

    expect(workspaceOnly.status).toBe(200);
    expect(workspaceOnly.body.entries).toEqual([]);
    expect(named.body.entries.every((e) => e.workspaceId === workspaceId)).toBe(true);
  });

  it('when a workspace admin asks for the platform, then it is refused, and their own view never holds a sign-in of a user outside it', async () => {
    const { user, password } = await registerUser(kit);
    await kit.call('POST', '/api/login', {
      ctx: signedOut(freshIp()),
      body: { username: user.username, password },
    });
    const workspaceId = newWorkspaceId();
    const admin = as(randomUUID(), { roles: { [workspaceId]: 'admin' }, ws: workspaceId });
    await waitFor(async () => {
      const { body } = await list(superAdmin(), `?scope=platform&actor=${user.username}`);
      return body.entries.length > 0;
    }, 'the sign-in');

    const platform = await list(admin, '?scope=platform');
    const exported = await kit.call('GET', '/api/audit/export?scope=platform', { ctx: admin });
    const own = await list(admin, `?actor=${user.username}`);

    expect([platform.status, exported.status]).toEqual([403, 403]);
    expect(own.status).toBe(200);
    expect(own.body.entries).toEqual([]);
  });
});
