import {
  adminOf,
  buildPrompt,
  member,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';

// Hardening issue, item 3: nothing crosses a workspace unless the super admin publishes it,
// and lists show only what the viewer may know.

jest.setTimeout(30_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 90_000);
afterAll(() => h?.stop(), 60_000);

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
  return res.body;
}

async function list(workspaceId: number, as: Caller) {
  const res = await h.call('GET', `/api/prompts?workspaceId=${workspaceId}`, { as });
  expect(res.status).toBe(200);
  return res.body as Array<Record<string, unknown>>;
}

const PUBLISH_FORBIDDEN = 'Only super administrators can publish a prompt to every workspace.';

describe("a workspace admin's prompt stays in its workspace", () => {
  it('when a workspace admin creates a prompt marked public, then 403 says only super administrators publish, and nothing is written', async () => {
    const home = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const name = `Leaky ${home}`;

    const res = await h.call('POST', '/api/prompts', {
      as: adminOf(home),
      body: buildPrompt({ workspaceId: home, name, isPublic: true }),
    });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'AUTH.FORBIDDEN', message: PUBLISH_FORBIDDEN });
    expect((await list(home, adminOf(home))).map((p) => p.name)).not.toContain(name);
    expect((await list(elsewhere, adminOf(elsewhere))).map((p) => p.name)).not.toContain(name);
  });

  it("when a workspace admin marks their prompt public, then 403 and other workspaces' admins neither list it nor read its template", async () => {
    const home = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const created = await createPrompt(home, { template: 'House secret about {topic}' });

    const res = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${home}`, {
      as: adminOf(home),
      body: { isPublic: true },
    });

    expect(res.status).toBe(403);
    expect(res.body.message).toBe(PUBLISH_FORBIDDEN);
    expect((await list(elsewhere, adminOf(elsewhere))).map((p) => p.id)).not.toContain(created.id);
    const detail = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${elsewhere}`, {
      as: adminOf(elsewhere),
    });
    expect(detail.status).toBe(404);
    expect(JSON.stringify(detail.body)).not.toContain('House secret');
  });

  it('when a workspace admin saves their prompt with the form, isPublic still false, then it is saved', async () => {
    const home = newWorkspaceId();
    const created = await createPrompt(home);

    const res = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${home}`, {
      as: adminOf(home),
      body: { name: 'Renamed', isPublic: false, workspaceId: home },
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', isPublic: false });
  });
});

describe("the super admin's published prompts", () => {
  it('when the super admin publishes a prompt, then every workspace lists it, admins read its template and plain users do not', async () => {
    const home = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const created = await createPrompt(
      home,
      { isPublic: true, template: 'Published {topic}' },
      superAdmin(),
    );

    const listed = await list(elsewhere, userOf(elsewhere));
    const asAdmin = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${elsewhere}`, {
      as: adminOf(elsewhere),
    });
    const asUser = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${elsewhere}`, {
      as: userOf(elsewhere),
    });

    expect(listed.map((p) => p.id)).toContain(created.id);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.template).toBe('Published {topic}');
    expect(asUser.status).toBe(200);
    expect(asUser.body).not.toHaveProperty('template');
    expect(asUser.body).toMatchObject({ id: created.id, isPublic: true, variables: ['topic'] });
  });

  it('when the super admin publishes an existing prompt of a workspace, then other workspaces list it', async () => {
    const home = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const created = await createPrompt(home);

    const res = await h.call('PUT', `/api/prompts/${created.id}?workspaceId=${home}`, {
      as: superAdmin(),
      body: { isPublic: true },
    });

    expect(res.status).toBe(200);
    expect((await list(elsewhere, userOf(elsewhere))).map((p) => p.id)).toContain(created.id);
  });

  it.each([
    ['edits', 'PUT', { name: 'Taken over' }],
    ['deletes', 'DELETE', undefined],
  ])(
    "when an admin of its home workspace %s the super admin's published prompt, then 403 and it stays as it was",
    async (_verb, method, body) => {
      const home = newWorkspaceId();
      const created = await createPrompt(home, { isPublic: true }, superAdmin());

      const res = await h.call(method, `/api/prompts/${created.id}?workspaceId=${home}`, {
        as: adminOf(home),
        body,
      });

      expect(res.status).toBe(403);
      expect(res.body.message).toBe(
        'Only super administrators can change a prompt published to every workspace.',
      );
      const listed = (await list(newWorkspaceId(), superAdmin())).find((p) => p.id === created.id);
      expect(listed).toMatchObject({ name: created.name });
    },
  );
});

describe('lists show only what the viewer may know', () => {
  it("when another workspace lists the super admin's published prompt, then it carries no user id and no workspace id", async () => {
    const home = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const publisher = superAdmin();
    const created = await createPrompt(home, { isPublic: true }, publisher);

    for (const as of [userOf(elsewhere), adminOf(elsewhere)]) {
      const listed = (await list(elsewhere, as)).find((p) => p.id === created.id);
      const detail = await h.call('GET', `/api/prompts/${created.id}?workspaceId=${elsewhere}`, {
        as,
      });

      expect(listed).toBeDefined();
      for (const view of [listed, detail.body]) {
        expect(view).not.toHaveProperty('userId');
        expect(view).not.toHaveProperty('workspaceId');
      }
      expect(JSON.stringify([listed, detail.body])).not.toContain(publisher!.uid!);
    }
  });

  it('when a list holds prompts of other tenants, then no user id in it belongs to anyone outside the workspace', async () => {
    const ws = newWorkspaceId();
    const colleague = adminOf(ws);
    const mine = await createPrompt(ws, {}, colleague);
    const foreign = [superAdmin(), superAdmin()];
    for (const publisher of foreign)
      await createPrompt(newWorkspaceId(), { isPublic: true }, publisher);

    const listed = await list(ws, userOf(ws));

    const userIds = listed.map((p) => p.userId).filter((id) => id !== undefined);
    expect(userIds).toEqual([mine.userId]);
    const text = JSON.stringify(listed);
    for (const publisher of foreign) expect(text).not.toContain(publisher!.uid!);
  });

  it('when the workspace itself, its author or the super admin views a prompt, then the author id is kept', async () => {
    const home = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const publisher = superAdmin();
    const created = await createPrompt(home, { isPublic: true }, publisher);
    const memberOfBoth = member({ [elsewhere]: 'user', [home]: 'user' }, { ws: elsewhere });

    const viewers: Caller[] = [publisher, superAdmin(), memberOfBoth, userOf(home)];
    for (const as of viewers) {
      const viewing = as === memberOfBoth || as!.sa ? elsewhere : home;
      const listed = (await list(viewing, as)).find((p) => p.id === created.id);
      expect(listed).toMatchObject({ userId: publisher!.uid, workspaceId: home });
    }
  });
});
