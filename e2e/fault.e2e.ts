import { stack } from './support/browser';
import { allContents, chatWorkspace, signIn, type ApiClient } from './support/api';
import { uniqueName } from './support/session';

// Issue 6, a fault: the content service, then the generation service, is killed (SIGKILL,
// as a crash) while generations go on, then started again. Every accepted generation ends
// with exactly one content; a generation refused during the crash is a clear failure that
// the client may retry with the same Idempotency-Key; none is lost, none is stored twice.

jest.setTimeout(240_000);

async function control(action: 'kill' | 'restart', name: string) {
  const res = await fetch(`${stack().controlUrl}/${action}?name=${name}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`${action} ${name}: ${res.status} ${await res.text()}`);
}

async function simulator(config: unknown) {
  await fetch(`${stack().simulatorUrl}/__sim/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
}

interface Outcome {
  message: string;
  key: string;
  status: number;
  contentId?: string;
  attempts: number;
}

function generate(client: ApiClient, ws: { workspaceId: number; promptId: string }, o: Outcome) {
  o.attempts += 1;
  return client
    .call<{ content?: { id: string } }>('POST', '/api/generate', {
      body: {
        promptId: ws.promptId,
        inputs: { message: o.message },
        language: 'nl',
        workspaceId: ws.workspaceId,
      },
      workspaceId: ws.workspaceId,
      headers: { 'idempotency-key': o.key },
    })
    .then(
      (answer) => {
        o.status = answer.status;
        o.contentId = answer.body?.content?.id;
      },
      () => {
        o.status = 0; // the connection broke: a clear failure for this client
      },
    );
}

/** Runs `count` generations, `parallel` at a time, calling `midway` after `after` answers. */
async function run(
  client: ApiClient,
  ws: { workspaceId: number; promptId: string },
  count: number,
  after: number,
  midway: () => Promise<void>,
): Promise<Outcome[]> {
  const tag = uniqueName('fault');
  const outcomes: Outcome[] = Array.from({ length: count }, (_, i) => ({
    message: `${tag} message ${i + 1}`,
    key: `${tag}-${i + 1}`,
    status: -1,
    attempts: 0,
  }));
  let answered = 0;
  let fault: Promise<void> | undefined;
  let next = 0;
  const parallel = 4;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < outcomes.length) {
        const outcome = outcomes[next++]!;
        await generate(client, ws, outcome);
        answered += 1;
        if (answered === after) fault = midway();
      }
    }),
  );
  await fault;
  return outcomes;
}

async function readable(client: ApiClient, id: string, workspaceId: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await client.call('GET', `/api/contents/${id}`, { workspaceId });
    if (answer.status === 200) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Each accepted generation's content is there exactly once; nothing else was stored. */
async function expectExactlyOnce(client: ApiClient, workspaceId: number, outcomes: Outcome[]) {
  for (const o of outcomes.filter((x) => x.status === 200))
    expect(await readable(client, o.contentId!, workspaceId)).toBe(true);
  const items = await allContents(client, workspaceId);
  const mine = items.filter((item) => outcomes.some((o) => item.title === o.message));
  const ids = mine.map((item) => item.id);
  expect(new Set(ids).size).toBe(ids.length); // none twice
  const byMessage = new Map<string, number>();
  for (const item of mine) {
    const o = outcomes.find((x) => item.title === x.message)!;
    byMessage.set(o.message, (byMessage.get(o.message) ?? 0) + 1);
  }
  for (const o of outcomes) {
    if (o.status === 200) {
      expect(byMessage.get(o.message)).toBe(1); // none lost
      expect(ids).toContain(o.contentId);
    } else expect(byMessage.get(o.message) ?? 0).toBeLessThanOrEqual(1);
  }
}

describe('a service crashes while generations go on', () => {
  let admin: ApiClient;
  let ws: { workspaceId: number; promptId: string };

  beforeAll(async () => {
    const { url, superAdmin } = stack();
    admin = await signIn(url, superAdmin.username, superAdmin.password);
    ws = await chatWorkspace(admin, uniqueName('Fault '));
    // Answers take a while, so generations are in flight when the crash comes.
    await simulator({ timeToFirstTokenMs: 150, tokensPerSecond: 400, fillerTokens: 20 });
  });

  afterAll(async () => {
    await simulator({ timeToFirstTokenMs: 0, tokensPerSecond: 0, fillerTokens: 30 });
  });

  it('when the content service is killed and restarted, then every generation ends with exactly one content', async () => {
    const outcomes = await run(admin, ws, 16, 4, async () => {
      await control('kill', 'content');
      await new Promise((r) => setTimeout(r, 4000));
      await control('restart', 'content');
    });
    // The generation service does not need the content service to answer: all accepted.
    expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 200));
    await expectExactlyOnce(admin, ws.workspaceId, outcomes);
  });

  it('when the generation service is killed and restarted, then a retry with the same key never makes a second content', async () => {
    const outcomes = await run(admin, ws, 16, 4, async () => {
      await control('restart', 'generation'); // SIGKILL, then start again
    });
    const failed = outcomes.filter((o) => o.status !== 200);
    expect(failed.length).toBeGreaterThan(0); // the crash did catch generations in flight
    // Requests in flight during the crash fail clearly (the gateway answers 502 or the
    // connection breaks); none hangs.
    for (const o of failed) expect([0, 502, 503]).toContain(o.status);
    // The client retries the failed ones with the same Idempotency-Key.
    for (const o of failed) await generate(admin, ws, o);
    expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 200));
    await expectExactlyOnce(admin, ws.workspaceId, outcomes);
  });
});
