import { EVENTS } from '@aict/contracts';
import { createBus, createLogger, type Bus } from '@aict/service-kit';
import { signTestContext } from '@aict/service-kit/testing';
import {
  parseEvents,
  sleep,
  startHarness,
  waitFor,
  type Caller,
  type Harness,
  type Workspace,
} from '../test-support/harness';

jest.setTimeout(60_000);

let t: Harness;
/** The auth and workspace services as far as their events go. */
let authBus: Bus;
let workspaceBus: Bus;

beforeAll(async () => {
  t = await startHarness();
  const logger = createLogger('rights-test', { level: 'silent' });
  const url = t.generation.config.AMQP_URL!;
  authBus = await createBus({ url, service: 'auth', logger, schemas: EVENTS });
  workspaceBus = await createBus({ url, service: 'workspace', logger, schemas: EVENTS });
  // Long answers: about 3 s each, so that a stream is still open when the event comes.
  t.sim.control.set({ tokensPerSecond: 20, fillerTokens: 60 });
}, 90_000);
afterAll(async () => {
  await authBus?.close();
  await workspaceBus?.close();
  await t?.stop();
}, 60_000);

/** A streamed generation as the browser runs it; `text()` is what has arrived so far. */
function openStream(as: Caller, promptId: string, message: string) {
  let text = '';
  const ended = (async () => {
    const res = await fetch(`${t.generation.http.url}/api/generate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'x-aict-context': signTestContext(as),
      },
      body: JSON.stringify({ promptId, inputs: { message } }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return parseEvents(text);
  })();
  return { ended, text: () => text };
}

const lastEvent = (events: Array<{ event: string; data: unknown }>) => events.at(-1);

const savedIn = (ws: Workspace) =>
  t.generation.deps
    .mongo!.collection('generations')
    .countDocuments({ workspaceId: ws.id } as never);

const revoked = {
  event: 'error',
  data: {
    status: 403,
    code: 'GENERATION.ACCESS_REVOKED',
    message: 'Your access changed while this was being generated, so it was stopped and not saved.',
  },
};

describe('a running generation when the rights of its user go', () => {
  it('when the user is deleted mid-stream, then the stream ends with an error event, the provider call stops and nothing is saved', async () => {
    const ws = await t.newWorkspace();
    const promptId = await t.newPrompt(ws);
    const stream = openStream(ws.user, promptId, 'Tell me everything');
    await waitFor(() => stream.text().includes('event: delta'), 'the first words');

    await authBus.publish('user.deleted', { userId: ws.user.uid });
    const events = await stream.ended;

    expect(lastEvent(events)).toEqual(revoked);
    await waitFor(
      () => t.sim.control.requests({ apiKey: ws.apiKey }).find((r) => r.aborted),
      'the provider request to be aborted',
    );
    await sleep(300);
    expect(await savedIn(ws)).toBe(0);
  });

  it("when the user is removed from the workspace mid-stream, then that user's stream ends and another member's goes on to the end", async () => {
    const ws = await t.newWorkspace();
    const promptId = await t.newPrompt(ws);
    const removed = openStream(ws.user, promptId, 'First user');
    const stays = openStream(ws.admin, promptId, 'Second user');
    await waitFor(
      () => removed.text().includes('event: delta') && stays.text().includes('event: delta'),
      'the first words of both',
    );

    await workspaceBus.publish('membership.changed', {
      workspaceId: ws.id,
      userId: ws.user.uid,
      role: null,
    });
    const [removedEvents, staysEvents] = await Promise.all([removed.ended, stays.ended]);

    expect(lastEvent(removedEvents)).toEqual(revoked);
    expect(lastEvent(staysEvents)?.event).toBe('done');
    await waitFor(async () => (await savedIn(ws)) === 1, 'the finished generation to be saved');
    const saved = await t.generation.deps
      .mongo!.collection('generations')
      .find({ workspaceId: ws.id } as never)
      .toArray();
    expect(saved.map((g) => g.userId)).toEqual([ws.admin.uid]);
  });

  it('when the user is deleted while their image is being made, then the provider call stops at once, the answer is 403 ACCESS_REVOKED and nothing is saved', async () => {
    const ws = await t.newWorkspace();
    const promptId = await t.newPrompt(ws, {
      contentType: 'image',
      model: 'dall-e-3',
      template: 'A poster of {subject}',
    });
    // Under the harness's PROVIDER_TIMEOUT_MS (1.5 s), long enough for the event to come first.
    t.sim.control.set({ latencyMs: 1200 });
    try {
      const answer = t.call('POST', '/api/generate', {
        as: ws.user,
        body: { promptId, inputs: { subject: 'a lighthouse' }, workspaceId: ws.id },
      });
      await waitFor(
        () => t.sim.control.requests({ apiKey: ws.apiKey }).length > 0,
        'the image request to reach the provider',
      );

      await authBus.publish('user.deleted', { userId: ws.user.uid });
      const res = await answer;

      expect(res.status).toBe(403);
      expect(res.body.code).toBe('GENERATION.ACCESS_REVOKED');
      // Stopped, not waited out: the provider sees its request aborted.
      await waitFor(
        () => t.sim.control.requests({ apiKey: ws.apiKey }).find((r) => r.aborted),
        'the provider request to be aborted',
      );
      expect(await savedIn(ws)).toBe(0);
    } finally {
      t.sim.control.set({ latencyMs: 0 });
    }
  });

  it('when the user is removed from another workspace, then their stream in this one goes on to the end', async () => {
    const ws = await t.newWorkspace();
    const other = await t.newWorkspace();
    const promptId = await t.newPrompt(other);
    const elsewhere = openStream(other.user, promptId, 'In the other workspace');
    await waitFor(() => elsewhere.text().includes('event: delta'), 'the first words');

    await workspaceBus.publish('membership.changed', {
      workspaceId: ws.id,
      userId: other.user.uid,
      role: null,
    });
    const events = await elsewhere.ended;

    expect(lastEvent(events)?.event).toBe('done');
  });
});
