import { randomUUID } from 'node:crypto';
import {
  PROMPT_COUNT_RPC,
  PROMPT_FOR_GENERATION_RPC,
  PROMPT_FOR_RESULTS_RPC,
  PromptCountReply,
  PromptForGenerationReply,
  PromptForResultsReply,
  type TrustedContext,
} from '@aict/contracts';
import { createBus, createLogger, type Bus } from '@aict/service-kit';
import {
  adminOf,
  buildImagePrompt,
  buildPrompt,
  member,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';
import { jpegImage, pngImage, referenceForm } from '../test-support/images';

// The request/reply endpoints, asked over the real RabbitMQ as the generation and content
// services ask them, against the prompts the HTTP routes wrote.

jest.setTimeout(60_000);

let h: Harness;
/** Another service's bus (the generation or content service). */
let caller: Bus;

beforeAll(async () => {
  h = await startHarness();
  caller = await createBus({
    url: h.env.AMQP_URL!,
    service: 'generation',
    logger: createLogger('generation-test', { level: 'silent' }),
  });
});
afterAll(async () => {
  await caller?.close();
  await h?.stop();
});

/** The trusted context the gateway would sign for this caller (forwarded as it is). */
function contextOf(who: Caller, overrides: Partial<TrustedContext> = {}): TrustedContext {
  const claims = who ?? { uid: null };
  const roles = Object.fromEntries(
    Object.entries(claims.roles ?? {}).map(([id, role]) => [String(id), role]),
  );
  const ws = claims.ws ?? null;
  return {
    uid: claims.uid === undefined ? 'test-user' : claims.uid,
    sa: claims.sa ?? false,
    roles,
    ws,
    role: ws === null ? null : claims.sa ? 'admin' : (roles[String(ws)] ?? null),
    rid: randomUUID(),
    ip: '127.0.0.1',
    ...overrides,
  };
}

const forGeneration = (
  who: Caller,
  promptId: string,
  workspaceId: number | null,
  overrides: Partial<TrustedContext> = {},
) =>
  caller.request(
    PROMPT_FOR_GENERATION_RPC,
    { ctx: contextOf(who, overrides), promptId, workspaceId },
    { schema: PromptForGenerationReply },
  );

const forResults = (who: Caller, promptId: string, workspaceId: number | null) =>
  caller.request(
    PROMPT_FOR_RESULTS_RPC,
    { ctx: contextOf(who), promptId, workspaceId },
    { schema: PromptForResultsReply },
  );

const count = (who: Caller, workspaceId: number) =>
  caller.request(
    PROMPT_COUNT_RPC,
    { ctx: contextOf(who), workspaceId },
    { schema: PromptCountReply },
  );

async function createPrompt(as: Caller, workspaceId: number, overrides = {}) {
  const res = await h.call('POST', '/api/prompts', {
    as,
    body: buildPrompt({ workspaceId, ...overrides }),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; template: string };
}

describe('prompt.for-generation', () => {
  it('when a member (not an admin) asks for an image prompt, then the reply holds its template and the MinIO objects of its reference images, in order', async () => {
    const ws = newWorkspaceId();
    const admin = adminOf(ws);
    const created = await h.call('POST', '/api/prompts', {
      as: admin,
      body: buildImagePrompt({ workspaceId: ws, template: 'A poster of {subject}' }),
    });
    expect(created.status).toBe(201);
    const png = await pngImage(10, 7);
    const jpeg = await jpegImage(6, 4);
    for (const bytes of [png, jpeg]) {
      const uploaded = await h.call('POST', `/api/prompts/${created.body.id}/reference-image`, {
        as: admin,
        form: referenceForm(bytes),
        headers: { 'x-workspace-id': String(ws) },
      });
      expect(uploaded.status).toBe(200);
    }

    const reply = await forGeneration(userOf(ws), created.body.id, ws);

    expect(reply.found).toBe(true);
    if (!reply.found) return;
    expect(reply.prompt).toMatchObject({
      id: created.body.id,
      name: created.body.name,
      template: 'A poster of {subject}',
      contentType: 'image',
      model: 'gpt-image-1',
      workspaceId: ws,
    });
    const storage = h.service.deps.storage!;
    expect(reply.prompt.referenceImages.map((image) => image.mimeType)).toEqual([
      'image/png',
      'image/jpeg',
    ]);
    for (const image of reply.prompt.referenceImages) {
      expect(image.bucket).toBe(storage.bucket);
      const object = await storage.get(image.key);
      expect(object).not.toBeNull();
      expect(object!.info.size).toBeGreaterThan(0);
      object!.stream.destroy();
    }
  });

  it('when a text prompt has no reference images, then the reply lists none', async () => {
    const ws = newWorkspaceId();
    const prompt = await createPrompt(adminOf(ws), ws);

    const reply = await forGeneration(userOf(ws), prompt.id, null);

    expect(reply).toEqual({
      found: true,
      prompt: expect.objectContaining({ template: prompt.template, referenceImages: [] }),
    });
  });

  it('for every kind of caller, then it finds exactly the prompts GET /api/prompts/:id shows, and nothing else', async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const owner = adminOf(ws);
    const privatePrompt = await createPrompt(owner, ws);
    const publicPrompt = await createPrompt(superAdmin(), ws, { isPublic: true });
    const deleted = await createPrompt(owner, ws);
    expect(
      (
        await h.call('DELETE', `/api/prompts/${deleted.id}`, {
          as: owner,
          headers: { 'x-workspace-id': String(ws) },
        })
      ).status,
    ).toBe(204);

    const callers: Array<[string, Caller, number | null]> = [
      ['a member, naming the workspace', userOf(ws), ws],
      ['a member, without a workspace', userOf(ws, { ws: null }), null],
      ['a member of another workspace, naming it', userOf(other), other],
      ['an admin of another workspace, without a workspace', adminOf(other, { ws: null }), null],
      ['a member of both, naming the other', member({ [other]: 'user', [ws]: 'user' }), other],
      ['a super admin, naming another workspace', superAdmin({ ws: other }), other],
      ['a super admin, without a workspace', superAdmin(), null],
    ];
    const cells: string[] = [];
    for (const [who, as, named] of callers) {
      for (const prompt of [privatePrompt, publicPrompt, deleted]) {
        const query = named === null ? '' : `?workspaceId=${named}`;
        const http = await h.call('GET', `/api/prompts/${prompt.id}${query}`, { as });
        const reply = await forGeneration(as, prompt.id, named);
        expect([200, 404]).toContain(http.status);
        if (http.status === 404) expect(http.body.code).toBe('PROMPT.NOT_FOUND');
        cells.push(`${who} / ${prompt.id}: http ${http.status}, found ${reply.found}`);
        expect(reply.found).toBe(http.status === 200);
        if (reply.found) expect(reply.prompt.template).toBe(prompt.template);
      }
    }
    // The matrix is not trivial: both outcomes occur.
    expect(cells.some((cell) => cell.endsWith('found true'))).toBe(true);
    expect(cells.some((cell) => cell.endsWith('found false'))).toBe(true);
  });

  it('when another workspace keeps a prompt private, then its member is answered found: false', async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const prompt = await createPrompt(adminOf(ws), ws);

    await expect(forGeneration(adminOf(other), prompt.id, other)).resolves.toEqual({
      found: false,
    });
    await expect(forGeneration(userOf(ws), 'no-such-prompt', ws)).resolves.toEqual({
      found: false,
    });
  });

  it('when the caller names a workspace they are not a member of, then the request fails with 403 WORKSPACE.FORBIDDEN', async () => {
    const ws = newWorkspaceId();
    const prompt = await createPrompt(superAdmin(), ws, { isPublic: true });

    await expect(forGeneration(userOf(newWorkspaceId()), prompt.id, ws)).rejects.toMatchObject({
      code: 'WORKSPACE.FORBIDDEN',
      status: 403,
      message: 'You are not a member of this workspace',
    });
  });

  it('when the context is signed out or the request is malformed, then it fails with 401 or 400', async () => {
    const ws = newWorkspaceId();
    const prompt = await createPrompt(superAdmin(), ws, { isPublic: true });

    await expect(forGeneration(null, prompt.id, null)).rejects.toMatchObject({
      code: 'AUTH.UNAUTHENTICATED',
      status: 401,
    });
    await expect(
      caller.request(PROMPT_FOR_GENERATION_RPC, { ctx: contextOf(userOf(ws)), workspaceId: ws }),
    ).rejects.toMatchObject({ code: 'VALIDATION.FAILED', status: 400 });
  });
});

describe('prompt.for-generation: the version', () => {
  it('when the prompt is edited, then the reply names its current version, the one the versions list calls current', async () => {
    const ws = newWorkspaceId();
    const admin = adminOf(ws);
    const prompt = await createPrompt(admin, ws);
    const first = await forGeneration(userOf(ws), prompt.id, ws);
    const edited = await h.call('PUT', `/api/prompts/${prompt.id}?workspaceId=${ws}`, {
      as: admin,
      body: { template: 'Now write about {topic} briefly' },
    });
    expect(edited.status).toBe(200);

    const second = await forGeneration(userOf(ws), prompt.id, ws);
    const versions = await h.call('GET', `/api/prompts/${prompt.id}/versions?workspaceId=${ws}`, {
      as: admin,
    });

    expect(first.found && first.prompt.version).toBe(1);
    expect(second.found && second.prompt.version).toBe(versions.body.current);
    expect(versions.body.current).toBeGreaterThan(1);
  });
});

describe('prompt.for-results', () => {
  it("when an admin of the prompt's workspace or a super admin asks, then the reply names its workspace and current version; others are refused as the versions route refuses them", async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const prompt = await createPrompt(adminOf(ws), ws);
    const published = await createPrompt(superAdmin(), ws, { isPublic: true });

    await expect(forResults(adminOf(ws), prompt.id, ws)).resolves.toEqual({
      workspaceId: ws,
      version: 1,
    });
    await expect(forResults(superAdmin(), prompt.id, null)).resolves.toEqual({
      workspaceId: ws,
      version: 1,
    });
    // A member sees the prompt but may not see its results.
    await expect(forResults(userOf(ws), prompt.id, ws)).rejects.toMatchObject({ status: 403 });
    // The admin of another workspace: a private prompt is not found, a published one refused.
    await expect(forResults(adminOf(other), prompt.id, other)).rejects.toMatchObject({
      status: 404,
      code: 'PROMPT.NOT_FOUND',
    });
    await expect(forResults(adminOf(other), published.id, other)).rejects.toMatchObject({
      status: 403,
    });
    for (const [as, named, id] of [
      [userOf(ws), ws, prompt.id],
      [adminOf(other), other, prompt.id],
      [adminOf(other), other, published.id],
      [adminOf(ws), ws, published.id],
    ] as const) {
      const http = await h.call('GET', `/api/prompts/${id}/versions?workspaceId=${named}`, { as });
      const rpc = await forResults(as, id, named).then(
        () => 200,
        (err: { status: number }) => err.status,
      );
      expect(rpc).toBe(http.status);
    }
  });
});

describe('prompt.count', () => {
  it('when a workspace has prompts and others are public, then the count is the length of the list GET /api/prompts shows, and follows a new prompt', async () => {
    const ws = newWorkspaceId();
    const admin = adminOf(ws);
    await createPrompt(admin, ws);
    await createPrompt(admin, ws, { contentType: 'image', model: 'gpt-image-1' });
    const elsewhere = newWorkspaceId();
    const published = await createPrompt(superAdmin(), elsewhere, { isPublic: true });
    const user = userOf(ws);

    const list = await h.call('GET', `/api/prompts?workspaceId=${ws}`, { as: user });
    const before = await count(user, ws);

    expect(list.status).toBe(200);
    expect(list.body.filter((p: { workspaceId: number }) => p.workspaceId === ws)).toHaveLength(2);
    expect(list.body.some((p: { id: string }) => p.id === published.id)).toBe(true);
    expect(before).toEqual({ count: list.body.length });

    await createPrompt(admin, ws);
    const after = await count(user, ws);
    const listAfter = await h.call('GET', `/api/prompts?workspaceId=${ws}`, { as: user });

    expect(after).toEqual({ count: listAfter.body.length });
    expect(after.count).toBe(before.count + 1);
  });

  it('when a super admin counts a workspace they are not a member of, then they get its count', async () => {
    const ws = newWorkspaceId();
    await createPrompt(adminOf(ws), ws);
    const sa = superAdmin({ ws });

    const list = await h.call('GET', `/api/prompts?workspaceId=${ws}`, { as: sa });

    expect(await count(sa, ws)).toEqual({ count: list.body.length });
  });

  it('when the caller may not view the workspace, then the request fails with 403 WORKSPACE.FORBIDDEN (not a count of 0)', async () => {
    const ws = newWorkspaceId();
    await createPrompt(adminOf(ws), ws);

    await expect(count(userOf(newWorkspaceId()), ws)).rejects.toMatchObject({
      code: 'WORKSPACE.FORBIDDEN',
      status: 403,
    });
    await expect(count(null, ws)).rejects.toMatchObject({ status: 401 });
  });
});
