import {
  adminOf,
  buildPrompt,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function createPrompt(
  workspaceId: number,
  overrides: Record<string, unknown> = {},
  as: Caller = adminOf(workspaceId),
) {
  const res = await h.call('POST', '/api/prompts', {
    as,
    body: buildPrompt({ workspaceId, ...overrides }),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; model: string; isDefault: boolean };
}

const getDefault = (workspaceId: number) =>
  h.call('GET', `/api/prompts/default?workspaceId=${workspaceId}`, { as: userOf(workspaceId) });

async function defaultsListed(workspaceId: number): Promise<string[]> {
  const res = await h.call('GET', `/api/prompts?workspaceId=${workspaceId}`, {
    as: userOf(workspaceId),
  });
  return (res.body as Array<{ id: string; isDefault: boolean }>)
    .filter((p) => p.isDefault)
    .map((p) => p.id);
}

describe('the default prompt of a workspace', () => {
  it('when the workspace has none, then GET /api/prompts/default answers 404 with the SPEC text', async () => {
    const ws = newWorkspaceId();
    await createPrompt(ws);

    const res = await getDefault(ws);

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'PROMPT.DEFAULT_NOT_FOUND',
      message: 'No default prompt configured for this workspace',
    });
  });

  it('when a prompt is created as the default, then GET default answers its id and model, and the list flags it alone', async () => {
    const ws = newWorkspaceId();
    await createPrompt(ws);
    const chosen = await createPrompt(ws, { isDefault: true, model: 'gpt-4-turbo' });

    const res = await getDefault(ws);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: chosen.id, model: 'gpt-4-turbo' });
    expect(chosen.isDefault).toBe(true);
    expect(await defaultsListed(ws)).toEqual([chosen.id]);
  });

  it('when another prompt is made the default, then the previous one stops being it', async () => {
    const ws = newWorkspaceId();
    const first = await createPrompt(ws, { isDefault: true });
    const second = await createPrompt(ws);

    const res = await h.call('PUT', `/api/prompts/${second.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { isDefault: true },
    });

    expect(res.body.isDefault).toBe(true);
    const old = await h.call('GET', `/api/prompts/${first.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
    });
    expect(old.body.isDefault).toBe(false);
    expect((await getDefault(ws)).body.id).toBe(second.id);
    expect(await defaultsListed(ws)).toEqual([second.id]);
  });

  it('when the default is switched off or deleted, then the workspace has none', async () => {
    const ws = newWorkspaceId();
    const a = await createPrompt(ws, { isDefault: true });

    await h.call('PUT', `/api/prompts/${a.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { isDefault: false },
    });
    const afterOff = await getDefault(ws);
    const b = await createPrompt(ws, { isDefault: true });
    await h.call('DELETE', `/api/prompts/${b.id}?workspaceId=${ws}`, { as: adminOf(ws) });
    const afterDelete = await getDefault(ws);

    expect(afterOff.status).toBe(404);
    expect(afterDelete.status).toBe(404);
    expect(await defaultsListed(ws)).toEqual([]);
  });

  it('when switching off a prompt that is not the default, then the default stays', async () => {
    const ws = newWorkspaceId();
    const chosen = await createPrompt(ws, { isDefault: true });
    const other = await createPrompt(ws);

    await h.call('PUT', `/api/prompts/${other.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { isDefault: false },
    });

    expect((await getDefault(ws)).body.id).toBe(chosen.id);
  });

  it('when 10 updates set 10 different prompts as the default at once, then exactly one is the default', async () => {
    const ws = newWorkspaceId();
    const prompts = [];
    for (let i = 0; i < 10; i++) prompts.push(await createPrompt(ws));

    const answers = await Promise.all(
      prompts.map((prompt) =>
        h.call('PUT', `/api/prompts/${prompt.id}?workspaceId=${ws}`, {
          as: adminOf(ws),
          body: { isDefault: true },
        }),
      ),
    );

    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const listed = await defaultsListed(ws);
    expect(listed).toHaveLength(1);
    expect((await getDefault(ws)).body.id).toBe(listed[0]);
    const details = await Promise.all(
      prompts.map((p) =>
        h.call('GET', `/api/prompts/${p.id}?workspaceId=${ws}`, { as: userOf(ws) }),
      ),
    );
    expect(details.filter((d) => d.body.isDefault)).toHaveLength(1);
    const latest = await h.domain.defaults.latest(`default:${ws}`);
    expect(latest?.value.promptId).toBe(listed[0]);
  });

  it('when 5 prompts are created as the default at once, then exactly one is the default', async () => {
    const ws = newWorkspaceId();

    await Promise.all(Array.from({ length: 5 }, () => createPrompt(ws, { isDefault: true })));

    expect(await defaultsListed(ws)).toHaveLength(1);
  });

  it('when the default changes, then prompt.default-changed is published with a growing sequence', async () => {
    const ws = newWorkspaceId();
    const a = await createPrompt(ws, { isDefault: true });
    const b = await createPrompt(ws);
    await h.call('PUT', `/api/prompts/${b.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { isDefault: true },
    });

    const first = await h.waitForEvent(
      (e) =>
        e.type === 'prompt.default-changed' &&
        (e.data as { workspaceId: number }).workspaceId === ws &&
        (e.data as { promptId: string }).promptId === a.id,
    );
    const second = await h.waitForEvent(
      (e) =>
        e.type === 'prompt.default-changed' &&
        (e.data as { workspaceId: number }).workspaceId === ws &&
        (e.data as { promptId: string }).promptId === b.id,
    );
    expect(first.data).toEqual({ workspaceId: ws, promptId: a.id, sequence: 1 });
    expect(second.data).toEqual({ workspaceId: ws, promptId: b.id, sequence: 2 });
  });

  it("when a public prompt is another workspace's default, then it is not flagged default elsewhere", async () => {
    const home = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const shared = await createPrompt(home, { isPublic: true, isDefault: true }, superAdmin());

    const listed = await h.call('GET', `/api/prompts?workspaceId=${elsewhere}`, {
      as: superAdmin(),
    });
    const detail = await h.call('GET', `/api/prompts/${shared.id}?workspaceId=${elsewhere}`, {
      as: userOf(elsewhere),
    });

    const seen = (listed.body as Array<{ id: string; isDefault: boolean }>).find(
      (p) => p.id === shared.id,
    );
    expect(seen?.isDefault).toBe(false);
    expect(detail.body.isDefault).toBe(false);
    expect((await getDefault(elsewhere)).status).toBe(404);
    expect(await defaultsListed(home)).toEqual([shared.id]);
  });

  it('when a plain user of another workspace asks for the default, then 404 Workspace not found', async () => {
    const ws = newWorkspaceId();
    await createPrompt(ws, { isDefault: true });

    const res = await h.call('GET', `/api/prompts/default?workspaceId=${ws}`, {
      as: userOf(newWorkspaceId()),
    });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('WORKSPACE.NOT_FOUND');
  });
});
