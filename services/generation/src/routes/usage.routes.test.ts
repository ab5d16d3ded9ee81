import { randomUUID } from 'node:crypto';
import type { UsageSummary } from '@aict/contracts';
import { checkAnswer, superAdmin } from '@aict/service-kit/testing';
import type { Clock } from '../domain/usage';
import { parseEvents, startHarness, type Harness, type Workspace } from '../test-support/harness';

let t: Harness;
let clock: Clock;
beforeAll(async () => {
  t = await startHarness({
    // Room for the concurrency test: every request of it runs or waits, none is "busy".
    GENERATION_MAX_QUEUED_PER_WORKSPACE: '64',
  });
  clock = (t.generation.app as unknown as { locals: { usageClock: Clock } }).locals.usageClock;
}, 90_000);
afterAll(() => t?.stop(), 60_000);
afterEach(() => {
  clock.now = () => new Date();
});

const DALL_E_IMAGE = 40_000; // micro-USD, the default price of a 1024x1024 standard image

/** A tiny CSV reader (quoted fields, CRLF): rows as objects by the header. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted) {
      field += c;
    } else if (c === ',') {
      endField();
    } else if (c === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else if (c !== '\r') {
      field += c;
    }
  }
  const [header, ...data] = rows;
  return data.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
}

async function ledgerOf(ws: Workspace, month?: string) {
  const res = await t.call(
    'GET',
    `/api/usage/export?workspaceId=${ws.id}${month ? `&month=${month}` : ''}`,
    { as: ws.admin },
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/csv');
  return parseCsv(res.text);
}

const summaryOf = async (ws: Workspace, as = ws.admin) => {
  const url = `/api/usage/summary?workspaceId=${ws.id}`;
  const res = await t.call('GET', url, { as });
  expect(res.status).toBe(200);
  return checkAnswer('GET', url, res) as UsageSummary;
};

async function setBudget(ws: Workspace, micros: number | null) {
  const res = await t.call('PUT', `/api/usage/limits/budget?workspaceId=${ws.id}`, {
    as: superAdmin(),
    body: { monthlyBudgetMicros: micros },
  });
  expect(res.status).toBe(200);
}

const imagePrompt = (ws: Workspace) =>
  t.newPrompt(ws, { contentType: 'image', model: 'dall-e-3', template: 'A poster of {subject}' });

const generate = (ws: Workspace, promptId: string, as = ws.user, headers = {}) =>
  t.call('POST', '/api/generate', {
    as,
    headers,
    body: { promptId, inputs: { subject: 'tulips' }, workspaceId: ws.id },
  });

/** Calls of the provider's generation endpoints (an image's download is not one). */
const providerCalls = () =>
  t.sim.control.requests({ path: '/v1/images/generations' }).length +
  t.sim.control.requests({ path: '/v1/chat/completions' }).length;

describe('the usage ledger', () => {
  it('when a member generates as JSON and as a stream, then each call is in the ledger once with the provider’s tokens and its cost', async () => {
    const ws = await t.newWorkspace();
    const promptId = await t.newPrompt(ws);

    const plain = await generate(ws, promptId);
    expect(plain.status).toBe(200);
    const plainCall = t.sim.control
      .requests({ apiKey: ws.apiKey, path: '/v1/chat/completions' })
      .at(-1)!;
    const streamed = await t.call('POST', '/api/generate', {
      as: ws.user,
      headers: { accept: 'text/event-stream' },
      body: { promptId, inputs: { message: 'Hallo daar' }, workspaceId: ws.id },
    });
    expect(streamed.status).toBe(200);
    const done = parseEvents(streamed.text).find((e) => e.event === 'done')!.data as {
      content: { id: string };
    };
    const streamedCall = t.sim.control
      .requests({ apiKey: ws.apiKey, path: '/v1/chat/completions' })
      .at(-1)!;

    const ledger = await ledgerOf(ws);
    expect(ledger).toHaveLength(2);
    const [first, second] = [
      ledger.find((row) => row.id === plain.body.content.id)!,
      ledger.find((row) => row.id === done.content.id)!,
    ];
    for (const [row, call, kind] of [
      [first, plainCall, 'text'],
      [second, streamedCall, 'chat'],
    ] as const) {
      expect(row).toMatchObject({
        workspaceId: String(ws.id),
        userId: ws.user.uid,
        promptId,
        model: 'gpt-4o',
        kind,
        outcome: 'ok',
        inputTokens: String(call.output!.promptTokens),
        outputTokens: String(call.output!.completionTokens),
        priceVersion: '0',
        currency: 'USD',
      });
      // gpt-4o: $2.50 per 1M input tokens, $10 per 1M output tokens, in micro-USD.
      const cost = Math.round(
        (call.output!.promptTokens! * 2_500_000 + call.output!.completionTokens! * 10_000_000) /
          1_000_000,
      );
      expect(Number(row.costMicros)).toBe(cost);
      expect(cost).toBeGreaterThan(0);
    }
    const summary = await summaryOf(ws);
    expect(summary.spentMicros).toBe(Number(first!.costMicros) + Number(second!.costMicros));
    expect(summary.byModel).toEqual([{ key: 'gpt-4o', costMicros: summary.spentMicros, calls: 2 }]);
  });

  it('when an image is generated, then its ledger entry names the size and quality at the image price', async () => {
    const ws = await t.newWorkspace();
    const res = await generate(ws, await imagePrompt(ws));
    expect(res.status).toBe(200);

    const [row] = await ledgerOf(ws);
    expect(row).toMatchObject({
      id: res.body.content.id,
      kind: 'image',
      model: 'dall-e-3',
      images: '1',
      imageSize: '1024x1024',
      imageQuality: 'standard',
      costMicros: String(DALL_E_IMAGE),
    });
  });

  it('when the same Idempotency-Key is sent again, then the call is counted once', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    const key = { 'idempotency-key': randomUUID() };
    const first = await generate(ws, promptId, ws.user, key);
    const again = await generate(ws, promptId, ws.user, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.content.id).toBe(first.body.content.id);

    expect(await ledgerOf(ws)).toHaveLength(1);
    expect((await summaryOf(ws)).spentMicros).toBe(DALL_E_IMAGE);
  });
});

describe('prices', () => {
  it('when the super admin changes a price, then later calls cost the new price and earlier ones keep theirs', async () => {
    const ws = await t.newWorkspace();
    const promptId = await t.newPrompt(ws, { model: 'gpt-3.5-turbo' });
    const before = await generate(ws, promptId);
    expect(before.status).toBe(200);

    const list = await t.call('GET', '/api/usage/prices', { as: superAdmin() });
    checkAnswer('GET', '/api/usage/prices', list);
    const old = list.body.prices.find((p: { model: string }) => p.model === 'gpt-3.5-turbo');
    expect(old).toMatchObject({ inputPerMillion: 500_000, outputPerMillion: 1_500_000 });
    const changed = await t.call('PUT', '/api/usage/prices/gpt-3.5-turbo', {
      as: superAdmin(),
      body: { inputPerMillion: 100_000_000, outputPerMillion: 200_000_000 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.version).toBe(old.version + 1);
    try {
      const after = await generate(ws, promptId);
      const ledger = await ledgerOf(ws);
      const rowOf = (id: string) => ledger.find((row) => row.id === id)!;
      const [early, late] = [rowOf(before.body.content.id), rowOf(after.body.content.id)];
      expect(early.priceVersion).toBe(String(old.version));
      expect(late.priceVersion).toBe(String(changed.body.version));
      const costAt = (row: Record<string, string>, input: number, output: number) =>
        Math.round((Number(row.inputTokens) * input + Number(row.outputTokens) * output) / 1e6);
      expect(Number(early.costMicros)).toBe(costAt(early, 500_000, 1_500_000));
      expect(Number(late.costMicros)).toBe(costAt(late, 100_000_000, 200_000_000));
    } finally {
      await t.call('PUT', '/api/usage/prices/gpt-3.5-turbo', {
        as: superAdmin(),
        body: { inputPerMillion: 500_000, outputPerMillion: 1_500_000 },
      });
    }
  });

  it('when anyone but the super admin edits a price or a budget, then it is refused', async () => {
    const ws = await t.newWorkspace();
    const price = await t.call('PUT', '/api/usage/prices/gpt-4o', {
      as: ws.admin,
      body: { inputPerMillion: 1, outputPerMillion: 1 },
    });
    const budget = await t.call('PUT', `/api/usage/limits/budget?workspaceId=${ws.id}`, {
      as: ws.admin,
      body: { monthlyBudgetMicros: 1 },
    });
    const cap = await t.call(
      'PUT',
      `/api/usage/limits/users/${ws.admin.uid}?workspaceId=${ws.id}`,
      {
        as: ws.user,
        body: { monthlyCapMicros: 1_000_000 },
      },
    );
    expect([price.status, budget.status, cap.status]).toEqual([403, 403, 403]);
  });
});

describe('budgets', () => {
  it('when 30 generations race at the edge of the budget, then exactly the budget is spent and the rest is refused before the provider', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    await setBudget(ws, 5 * DALL_E_IMAGE);
    const callsBefore = providerCalls();

    const answers = await Promise.all(
      Array.from({ length: 30 }, () => generate(ws, promptId, ws.admin)),
    );

    const ok = answers.filter((res) => res.status === 200);
    const refused = answers.filter((res) => res.status === 402);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(25);
    expect(refused[0]!.body).toMatchObject({
      code: 'GENERATION.BUDGET_REACHED',
      message: 'This workspace has reached its monthly budget',
    });
    expect(providerCalls() - callsBefore).toBe(5);
    const summary = await summaryOf(ws);
    expect(summary).toMatchObject({
      spentMicros: 5 * DALL_E_IMAGE,
      monthlyBudgetMicros: 5 * DALL_E_IMAGE,
      warning: true,
      reached: true,
    });

    // A stream is refused as plain JSON before it opens; a text call too.
    const streamed = await t.call('POST', '/api/generate', {
      as: ws.user,
      headers: { accept: 'text/event-stream' },
      body: { promptId: await t.newPrompt(ws), inputs: { message: 'Hi' }, workspaceId: ws.id },
    });
    expect(streamed.status).toBe(402);
    expect(streamed.headers.get('content-type')).toContain('application/json');
    expect(streamed.body.message).toBe('This workspace has reached its monthly budget');
    expect(providerCalls() - callsBefore).toBe(5);
  }, 20_000);

  it('when 80 % of the budget is spent, then the admins get the warning and members do not', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    await setBudget(ws, 5 * DALL_E_IMAGE);
    for (let i = 0; i < 3; i++) expect((await generate(ws, promptId)).status).toBe(200);
    expect((await summaryOf(ws)).warning).toBe(false);

    expect((await generate(ws, promptId)).status).toBe(200);
    expect(await summaryOf(ws)).toMatchObject({ warning: true, reached: false });
    const member = await summaryOf(ws, ws.user);
    expect(member).toMatchObject({
      scope: 'user',
      warning: false,
      monthlyBudgetMicros: null,
      spentMicros: 4 * DALL_E_IMAGE,
    });
    expect(member.byUser).toEqual([{ key: ws.user.uid, costMicros: 4 * DALL_E_IMAGE, calls: 4 }]);
  }, 20_000);

  it('when the month ends, then the budget starts again (UTC, the service clock)', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    await setBudget(ws, DALL_E_IMAGE);
    clock.now = () => new Date('2031-01-31T23:59:58.000Z');
    expect((await generate(ws, promptId)).status).toBe(200);
    expect((await generate(ws, promptId)).status).toBe(402);

    clock.now = () => new Date('2031-02-01T00:00:01.000Z');
    expect((await generate(ws, promptId)).status).toBe(200);
    expect(await summaryOf(ws)).toMatchObject({ month: '2031-02', spentMicros: DALL_E_IMAGE });
    expect(await ledgerOf(ws, '2031-01')).toHaveLength(1);
  });

  it('when a workspace admin caps a user, then that user is refused at the cap and the others go on', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    const capped = await t.call(
      'PUT',
      `/api/usage/limits/users/${ws.user.uid}?workspaceId=${ws.id}`,
      {
        as: ws.admin,
        body: { monthlyCapMicros: DALL_E_IMAGE },
      },
    );
    expect(capped.status).toBe(200);
    checkAnswer('PUT', `/api/usage/limits/users/${ws.user.uid}?workspaceId=${ws.id}`, capped);
    expect(capped.body.userCaps).toEqual({ [ws.user.uid!]: DALL_E_IMAGE });

    expect((await generate(ws, promptId)).status).toBe(200);
    const refused = await generate(ws, promptId);
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('GENERATION.USER_CAP_REACHED');
    expect((await generate(ws, promptId, ws.admin)).status).toBe(200);
    expect((await summaryOf(ws)).spentMicros).toBe(2 * DALL_E_IMAGE);
  });
});

describe('rate limit', () => {
  it('when a user sends more generations in a minute than the workspace allows, then 429 with Retry-After until the next minute', async () => {
    const ws = await t.newWorkspace();
    const promptId = await t.newPrompt(ws);
    const set = await t.call('PUT', `/api/usage/limits/rate?workspaceId=${ws.id}`, {
      as: ws.admin,
      body: { requestsPerMinute: 2 },
    });
    expect(set.body.requestsPerMinute).toBe(2);
    clock.now = () => new Date('2031-03-01T10:00:15.000Z');

    expect((await generate(ws, promptId)).status).toBe(200);
    expect((await generate(ws, promptId)).status).toBe(200);
    const limited = await generate(ws, promptId);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('GENERATION.RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('45');
    // Another user of the workspace has their own minute.
    expect((await generate(ws, promptId, ws.admin)).status).toBe(200);

    clock.now = () => new Date('2031-03-01T10:01:00.000Z');
    expect((await generate(ws, promptId)).status).toBe(200);
  });
});
