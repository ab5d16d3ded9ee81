import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { CONTEXT_HEADER } from '@aict/contracts';
import { serviceTestEnv, signTestContext } from '@aict/service-kit/testing';
import {
  adminOf,
  buildContent,
  buildImage,
  newWorkspaceId,
  startHarness,
  userOf,
  waitFor,
  type Caller,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(90_000);

// The prompt count comes from the real prompt service (its built dist/, started on this test
// file's vhost); without a build of it the test says so and fails.
const PROMPT_MAIN = join(__dirname, '../../../prompt/dist/main.js');

let h: Harness;
let prompt: ChildProcess;
let promptUrl: string;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  h = await startHarness();
  if (!existsSync(PROMPT_MAIN))
    throw new Error('build the prompt service first: npm run build -w @aict/prompt-service');
  const port = await freePort();
  promptUrl = `http://127.0.0.1:${port}`;
  prompt = spawn(process.execPath, [PROMPT_MAIN], {
    env: {
      ...process.env,
      ...serviceTestEnv('prompt', { AMQP_URL: h.vhostUrl, PORT: String(port) }),
    },
    stdio: 'ignore',
  });
  await waitFor(async () => (await fetch(`${promptUrl}/readyz`)).ok, 'the prompt service');
});
afterAll(async () => {
  if (prompt && prompt.exitCode === null) {
    const exited = new Promise((resolve) => prompt.once('exit', resolve));
    prompt.kill('SIGTERM');
    await exited;
  }
  await h?.stop();
});

async function createPrompt(ws: number) {
  const res = await fetch(`${promptUrl}/api/prompts`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [CONTEXT_HEADER]: signTestContext(adminOf(ws)!),
    },
    body: JSON.stringify({
      workspaceId: ws,
      name: `Prompt ${Math.random()}`,
      template: 'Write about {topic}',
      category: 'Marketing',
      contentType: 'text',
      model: 'gpt-4o',
    }),
  });
  expect(res.status).toBe(201);
}

describe('stats', () => {
  it("when a workspace has prompts, texts and images, then the stats count them (a deleted text no longer counts), and other workspaces' do not", async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    await createPrompt(ws);
    await createPrompt(ws);
    await createPrompt(other);
    const texts = [1, 2, 3].map(() => buildContent({ workspaceId: ws }));
    for (const c of [
      ...texts,
      buildImage({ workspaceId: ws }),
      buildContent({ workspaceId: other }),
    ])
      await h.store(c);
    expect(
      (
        await h.call('DELETE', `/api/contents/${texts[0]!.id}?workspaceId=${ws}`, {
          as: adminOf(ws),
        })
      ).status,
    ).toBe(204);

    const res = await h.call('GET', `/api/stats?workspaceId=${ws}`, { as: userOf(ws) });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      totalPrompts: 2,
      textContent: 2,
      imagesGenerated: 1,
      reviews: { draft: 3, 'in-review': 0, approved: 0, 'changes-requested': 0 },
    });
  });

  it('when contents are submitted, approved, sent back or deleted, then the stats count each review state', async () => {
    const ws = newWorkspaceId();
    const owner = userOf(ws);
    const items = [1, 2, 3, 4, 5].map(() => buildContent({ workspaceId: ws, userId: owner!.uid! }));
    for (const c of items) await h.store(c);
    const review = (id: string, as: Caller, action: string, comment?: string) =>
      h.call('POST', `/api/contents/${id}/review?workspaceId=${ws}`, {
        as,
        body: { action, comment },
      });
    for (const c of items.slice(0, 4))
      expect((await review(c.id, owner, 'submit')).status).toBe(200);
    expect((await review(items[0]!.id, adminOf(ws), 'approve')).status).toBe(200);
    expect((await review(items[1]!.id, adminOf(ws), 'request-changes', 'Shorter')).status).toBe(
      200,
    );
    expect((await review(items[2]!.id, adminOf(ws), 'approve')).status).toBe(200);
    const removed = await h.call('DELETE', `/api/contents/${items[2]!.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
    });
    expect(removed.status).toBe(204);

    const res = await h.call('GET', `/api/stats?workspaceId=${ws}`, { as: owner });

    expect(res.status).toBe(200);
    expect((res.body as { reviews: unknown }).reviews).toEqual({
      draft: 1,
      'in-review': 1,
      approved: 1,
      'changes-requested': 1,
    });
  });

  it("when no workspace is named, then 400; when it is not the caller's, then 404", async () => {
    const ws = newWorkspaceId();
    const none = await h.call('GET', '/api/stats', { as: userOf(ws, { ws: null }) });
    const foreign = await h.call('GET', `/api/stats?workspaceId=${newWorkspaceId()}`, {
      as: userOf(ws),
    });
    expect(none.status).toBe(400);
    expect(foreign.status).toBe(404);
  });
});
