import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import amqp from 'amqplib';
import { allContents, chatWorkspace, signIn, type ApiAnswer, type ApiClient } from './support/api';
import { makePng } from './support/png';

// The Hardening issue's infrastructure faults, on a stack of its own (profile `infraFault`,
// gateway 29080) whose FerretDB, MinIO and RabbitMQ are private processes that this file
// stops and starts (e2e/support/infra-fault-stack.mjs); the shared servers are untouched.

jest.setTimeout(240_000);

interface FaultStack {
  url: string;
  controlUrl: string;
  simulatorUrl: string;
  services: Record<string, string>;
  superAdmin: { username: string; password: string };
  infra: { rabbit: { host: string; port: number } };
}

let child: ChildProcess;
let stack: FaultStack;
let admin: ApiClient;

type Part = 'ferret' | 'minio' | 'rabbit';

async function control(action: 'stop' | 'start', part: Part) {
  const res = await fetch(`${stack.controlUrl}/${action}?part=${part}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`${action} ${part}: ${res.status} ${await res.text()}`);
}

async function simulator(config: unknown) {
  const res = await fetch(`${stack.simulatorUrl}/__sim/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  if (!res.ok) throw new Error(`simulator config: ${res.status}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A failure a client may retry: 503 with Retry-After and the product's error JSON. */
function expectRetryable(answer: ApiAnswer, code?: string) {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 503,
    body: expect.objectContaining({
      code: code ?? expect.any(String),
      message: expect.stringMatching(/^[A-Z].*\.$/),
    }),
  });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

beforeAll(async () => {
  child = spawn(process.execPath, [join(__dirname, 'support', 'infra-fault-stack.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  stack = await new Promise<FaultStack>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as FaultStack));
    child.once('exit', (code) => reject(new Error(`the fault stack exited with ${code}`)));
  });
  lines.close();
  admin = await signIn(stack.url, stack.superAdmin.username, stack.superAdmin.password);
}, 230_000);

afterAll(async () => {
  if (!child) return;
  const exited = new Promise((r) => child.once('exit', r));
  if (stack) await fetch(`${stack.controlUrl}/close`, { method: 'POST' }).catch(() => undefined);
  else child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000).unref())]);
  child.stdout?.destroy();
  child.stdin?.destroy();
});

describe('the document store stops during writes', () => {
  it('when FerretDB is down for 10 s, then writes answer 503 with Retry-After, none is half-written, and writes succeed again within 10 s of its return', async () => {
    const ws = await chatWorkspace(admin, `Store fault ${tag()}`);
    const run = tag();
    const outcomes: Array<{ name: string; answer: ApiAnswer<{ id?: string }>; at: number }> = [];
    let stop = false;
    let back = Infinity;
    const createPrompt = (name: string) =>
      admin.call<{ id?: string }>('POST', '/api/prompts', {
        body: {
          name,
          template: 'Write about {topic}',
          category: 'Marketing',
          contentType: 'text',
          model: 'gpt-4o',
          isPublic: false,
          workspaceId: ws.workspaceId,
        },
        workspaceId: ws.workspaceId,
      });
    // Four writers, so that writes are in flight all through the outage.
    let next = 0;
    const writers = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          const name = `${run} prompt ${next++}`;
          const answer = await createPrompt(name);
          outcomes.push({ name, answer, at: Date.now() });
          // Once writes work again after the outage, a few more and done.
          if (outcomes.filter((o) => o.at > back && o.answer.status === 201).length > 8)
            stop = true;
          await sleep(200);
        }
      }),
    );

    await sleep(1000);
    await control('stop', 'ferret');
    await sleep(10_000);
    await control('start', 'ferret');
    back = Date.now();
    await writers;

    const statuses = outcomes.map((o) => o.answer.status);
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]); // never a 500
    const refused = outcomes.filter((o) => o.answer.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expectRetryable(o.answer, 'DATABASE.UNAVAILABLE');
    const firstAfter = outcomes.find((o) => o.at > back && o.answer.status === 201)!;
    const recoveryMs = firstAfter.at - back;
    console.log(
      `store outage: ${outcomes.length} writes, ${refused.length} answered 503, ` +
        `first success ${recoveryMs} ms after FerretDB listened again`,
    );
    expect(recoveryMs).toBeLessThanOrEqual(10_000);

    // Every accepted prompt is there and whole; a refused one is absent or whole, never twice.
    // The list is a summary that the prompts' events bring up to date once the outbox
    // publishes them again: it catches up by itself.
    const accepted = outcomes.filter((o) => o.answer.status === 201);
    const listMine = async () =>
      (
        await admin.ok<Array<{ id: string; name: string }>>(
          'GET',
          `/api/prompts?workspaceId=${ws.workspaceId}`,
          { workspaceId: ws.workspaceId },
        )
      ).filter((p) => p.name.startsWith(run));
    let mine = await listMine();
    while (
      !accepted.every((o) => mine.some((p) => p.id === o.answer.body.id)) &&
      Date.now() - back < 30_000
    ) {
      await sleep(500);
      mine = await listMine();
    }
    console.log(`store outage: the prompt list was whole ${Date.now() - back} ms after the return`);
    for (const o of outcomes) {
      const found = mine.filter((p) => p.name === o.name);
      if (o.answer.status === 201) expect(found.map((p) => p.id)).toEqual([o.answer.body.id]);
      else expect(found.length).toBeLessThanOrEqual(1);
      for (const p of found) {
        const detail = await admin.ok<{ template: string }>('GET', `/api/prompts/${p.id}`, {
          workspaceId: ws.workspaceId,
        });
        expect(detail.template).toBe('Write about {topic}');
      }
    }
  });
});

describe('the object store stops during uploads', () => {
  it('when MinIO is down, then a logo and a reference image upload answer 503 with Retry-After, no record points at a missing object, and uploads work once it is back', async () => {
    const ws = await chatWorkspace(admin, `Files fault ${tag()}`);
    const prompt = await admin.ok<{ id: string }>('POST', '/api/prompts', {
      body: {
        name: `Image ${tag()}`,
        template: 'A picture of {subject}',
        category: 'Marketing',
        contentType: 'image',
        model: 'gpt-image-1',
        isPublic: false,
        workspaceId: ws.workspaceId,
      },
      workspaceId: ws.workspaceId,
    });
    const png = makePng(32, 32);
    const logoForm = () => {
      const form = new FormData();
      form.append('logo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
      return form;
    };
    const referenceForm = () => {
      const form = new FormData();
      form.append('reference', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'ref.png');
      return form;
    };
    const uploadLogo = () =>
      admin.call('POST', `/api/workspaces/${ws.workspaceId}/logo`, {
        form: logoForm(),
        workspaceId: ws.workspaceId,
      });
    const uploadReference = () =>
      admin.call('POST', `/api/prompts/${prompt.id}/reference-image`, {
        form: referenceForm(),
        workspaceId: ws.workspaceId,
      });

    await control('stop', 'minio');
    let logo: ApiAnswer;
    let reference: ApiAnswer;
    try {
      logo = await uploadLogo();
      reference = await uploadReference();
    } finally {
      await control('start', 'minio');
    }
    expectRetryable(logo, 'STORAGE.UNAVAILABLE');
    expectRetryable(reference, 'STORAGE.UNAVAILABLE');
    // No record points at an object that was never written.
    const workspaces = await admin.ok<Array<{ id: number; logoUrl?: string }>>(
      'GET',
      '/api/workspaces',
    );
    expect(workspaces.find((w) => w.id === ws.workspaceId)?.logoUrl).toBeUndefined();
    const view = await admin.ok<{ referenceImageUrls: string[] }>(
      'GET',
      `/api/prompts/${prompt.id}`,
      { workspaceId: ws.workspaceId },
    );
    expect(view.referenceImageUrls).toEqual([]);

    // Back: the same uploads work, and what they point at can be read.
    expect((await uploadLogo()).status).toBe(200);
    expect((await uploadReference()).status).toBeLessThan(300);
    const after = await admin.ok<{ referenceImageUrls: string[] }>(
      'GET',
      `/api/prompts/${prompt.id}`,
      { workspaceId: ws.workspaceId },
    );
    expect(after.referenceImageUrls).toHaveLength(1);
    const image = await admin.raw(after.referenceImageUrls[0]!, {
      headers: { 'x-workspace-id': String(ws.workspaceId) },
    });
    expect(image.status).toBe(200);
  });
});

interface Generation {
  ws: { workspaceId: number; promptId: string };
  message: string;
  key: string;
  answer?: ApiAnswer<{ content?: { id: string } }>;
  attempts: number;
}

function generate(g: Generation) {
  const { ws } = g;
  g.attempts += 1;
  return admin
    .call<{ content?: { id: string } }>('POST', '/api/generate', {
      body: {
        promptId: ws.promptId,
        inputs: { message: g.message },
        language: 'en',
        workspaceId: ws.workspaceId,
      },
      workspaceId: ws.workspaceId,
      headers: { 'idempotency-key': g.key },
    })
    .then((answer) => {
      g.answer = answer;
    });
}

/** Runs `todo`, `parallel` at a time; `midway` is called once `after` have been answered. */
async function generateAll(
  todo: Generation[],
  parallel: number,
  after = Infinity,
  midway: () => Promise<void> = async () => undefined,
) {
  let next = 0;
  let answered = 0;
  let fault: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < todo.length) {
        await generate(todo[next++]!);
        if (++answered === after) fault = midway();
      }
    }),
  );
  await fault;
}

describe('a poison message', () => {
  it('when messages the content service cannot take reach its queue, then they land in its dead-letter queue with their reason and the next generation is still stored', async () => {
    const ws = await chatWorkspace(admin, `Poison ${tag()}`);
    const { host, port } = stack.infra.rabbit;
    const connection = await amqp.connect(`amqp://guest:guest@${host}:${port}/aict-test`);
    try {
      const ch = await connection.createConfirmChannel();
      const queue = 'content.generation-completed.v2';
      const dlq = `${queue}.dlq`;
      await ch.purgeQueue(dlq);
      const exchange = 'aict.generation.events';
      const send = (body: string) =>
        new Promise<void>((resolve, reject) =>
          ch.publish(
            exchange,
            'generation.completed',
            Buffer.from(body),
            { persistent: true },
            (err) => (err ? reject(err) : resolve()),
          ),
        );
      await send('not json {');
      await send(
        JSON.stringify({
          id: `poison-${tag()}`,
          type: 'generation.completed',
          version: 1,
          occurredAt: new Date().toISOString(),
          correlationId: 'poison',
          causationId: null,
          data: { id: 'not-a-content' },
        }),
      );

      const g: Generation = { ws, message: `after the poison ${tag()}`, key: tag(), attempts: 0 };
      await generate(g);
      expect(g.answer!.status).toBe(200);

      const reasons: unknown[] = [];
      const deadline = Date.now() + 60_000;
      while (reasons.length < 2 && Date.now() < deadline) {
        const dead = await ch.get(dlq, { noAck: true });
        if (dead) reasons.push(dead.properties.headers?.['x-dead-letter-reason']);
        else await sleep(250);
      }
      expect(reasons).toEqual([
        'invalid message: body is not JSON',
        'invalid message: invalid data',
      ]);
      const contents = await allContents(admin, ws.workspaceId);
      expect(contents.map((c) => c.title)).toEqual([g.message]);
    } finally {
      await connection.close();
    }
  });
});

describe('the message broker restarts', () => {
  afterAll(async () => {
    if (stack) await simulator({ timeToFirstTokenMs: 0, tokensPerSecond: 0, fillerTokens: 30 });
  });

  it('when RabbitMQ restarts with 1,000 generations in flight, then each caller gets its answer or a retryable 503, and every accepted generation ends with exactly one content', async () => {
    // Five workspaces: the content service stores one workspace's contents one at a time.
    const spaces = await Promise.all(
      Array.from({ length: 5 }, (_, i) => chatWorkspace(admin, `Broker fault ${i} ${tag()}`)),
    );
    await simulator({ timeToFirstTokenMs: 20, tokensPerSecond: 0, fillerTokens: 5 });
    const run = tag();
    const all: Generation[] = Array.from({ length: 1000 }, (_, i) => ({
      ws: spaces[i % spaces.length]!,
      message: `${run} message ${i + 1}`,
      key: `${run}-${i + 1}`,
      attempts: 0,
    }));
    let outageMs = 0;

    await generateAll(all, 16, 150, async () => {
      const t0 = Date.now();
      await control('stop', 'rabbit');
      await control('start', 'rabbit');
      outageMs = Date.now() - t0;
    });

    const firstRound = all.map((g) => g.answer!);
    const refused = firstRound.filter((a) => a.status !== 200);
    // The broker really went away meanwhile. Whether a caller noticed depends on timing: the
    // hot path of a warm generation makes no request/reply, and the outbox keeps the events.
    expect(outageMs).toBeGreaterThan(0);
    for (const answer of refused) expectRetryable(answer);

    // The callers retry what was refused, with the same Idempotency-Key.
    for (let round = 0; round < 5; round++) {
      const again = all.filter((g) => g.answer!.status !== 200);
      if (again.length === 0) break;
      await sleep(1000);
      await generateAll(again, 8);
    }
    expect(all.filter((g) => g.answer!.status !== 200).map((g) => g.answer!.text)).toEqual([]);

    // Accepted equals completed: each generation's content is there once, none twice.
    const accepted = new Map(all.map((g) => [g.answer!.body.content!.id, g.message]));
    expect(accepted.size).toBe(all.length);
    // The content service may still be busy with the queue: a slow answer is asked again.
    const contentsOfAll = async () => {
      const lists = [];
      for (const ws of spaces) lists.push(await allContents(admin, ws.workspaceId));
      return lists.flat();
    };
    const deadline = Date.now() + 90_000;
    let contents: Awaited<ReturnType<typeof contentsOfAll>> = [];
    for (;;) {
      contents = await contentsOfAll().catch(() => contents);
      if (contents.length >= all.length || Date.now() > deadline) break;
      await sleep(2000);
    }
    const ids = contents.map((c) => c.id);
    console.log(
      `broker restart: outage ${outageMs} ms, ${refused.length} of ${all.length} refused with 503 ` +
        `in the first round, ${all.reduce((n, g) => n + g.attempts, 0)} requests in all, ` +
        `${contents.length} contents`,
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...accepted.keys()].sort());
    for (const c of contents) expect(c.title).toBe(accepted.get(c.id));
  }, 600_000);
});
