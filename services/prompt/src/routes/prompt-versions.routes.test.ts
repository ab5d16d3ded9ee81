import type { TrustedContext } from '@aict/contracts';
import { AppError } from '@aict/service-kit';
import { KEEP_VERSIONS } from '../data/prompt-versions.model';
import { restoreVersion } from '../domain/prompt-versions';
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

// Issue 18: every edit of a prompt keeps the previous version; admins list them and restore
// one as a NEW version, never rewriting history nor replacing an edit made meanwhile.

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

interface Version {
  version: number;
  editedBy: string | null;
  editedAt: string;
  name: string;
  template: string;
  model: string;
}

async function createPrompt(ws: number, as: Caller, overrides: Record<string, unknown> = {}) {
  const res = await h.call('POST', '/api/prompts', {
    as,
    body: buildPrompt({ workspaceId: ws, template: 'First {topic}', ...overrides }),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

async function edit(id: string, ws: number, as: Caller, body: Record<string, unknown>) {
  const res = await h.call('PUT', `/api/prompts/${id}?workspaceId=${ws}`, { as, body });
  expect(res.status).toBe(200);
  return res.body;
}

async function versions(id: string, ws: number, as: Caller) {
  const res = await h.call('GET', `/api/prompts/${id}/versions?workspaceId=${ws}`, { as });
  expect(res.status).toBe(200);
  return res.body as { current: number; versions: Version[] };
}

const restore = (id: string, ws: number, version: number, as: Caller, body: object = {}) =>
  h.call('POST', `/api/prompts/${id}/versions/${version}/restore?workspaceId=${ws}`, {
    as,
    body,
  });

describe('listing the versions of a prompt', () => {
  it('when an admin edits a template twice, then the versions list all three, newest first, with who edited and the stored fields', async () => {
    const ws = newWorkspaceId();
    const creator = adminOf(ws);
    const editor = adminOf(ws);
    const { id } = await createPrompt(ws, creator);
    await edit(id, ws, editor, { template: 'Second {topic}' });
    await edit(id, ws, creator, {
      template: 'Third {topic}',
      name: 'Renamed',
      model: 'gpt-4-turbo',
    });

    const listed = await versions(id, ws, editor);

    expect(listed.versions.map((v) => v.template)).toEqual([
      'Third {topic}',
      'Second {topic}',
      'First {topic}',
    ]);
    expect(listed.current).toBe(listed.versions[0]!.version);
    expect(listed.versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(listed.versions.map((v) => v.editedBy)).toEqual([
      creator!.uid,
      editor!.uid,
      creator!.uid,
    ]);
    expect(listed.versions[0]).toMatchObject({ name: 'Renamed', model: 'gpt-4-turbo' });
    expect(Date.parse(listed.versions[0]!.editedAt)).toBeGreaterThanOrEqual(
      Date.parse(listed.versions[2]!.editedAt),
    );
  });

  it('when the super admin asks, then the versions are listed', async () => {
    const ws = newWorkspaceId();
    const { id } = await createPrompt(ws, adminOf(ws));
    expect((await versions(id, ws, superAdmin({ ws }))).versions).toHaveLength(1);
  });

  it('when a member who is not an admin asks, then 403 with the forbidden code, even as the prompt owner', async () => {
    const ws = newWorkspaceId();
    const owner = adminOf(ws);
    const { id } = await createPrompt(ws, owner);

    for (const as of [userOf(ws), { ...owner!, roles: { [ws]: 'user' as const }, role: null }]) {
      const res = await h.call('GET', `/api/prompts/${id}/versions?workspaceId=${ws}`, { as });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('AUTH.FORBIDDEN');
      expect(res.text).not.toContain('First {topic}');
    }
  });

  it("when an admin of another workspace asks for a prompt's versions, then 404 as for the prompt itself, and nothing is restored", async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const { id } = await createPrompt(ws, adminOf(ws), { template: 'Secret {topic}' });
    await edit(id, ws, adminOf(ws), { template: 'Newer {topic}' });
    const stranger = adminOf(other);

    const listed = await h.call('GET', `/api/prompts/${id}/versions?workspaceId=${other}`, {
      as: stranger,
    });
    const restored = await restore(id, other, 1, stranger);
    // Naming the prompt's workspace does not help someone who is not a member there.
    const named = await h.call('GET', `/api/prompts/${id}/versions?workspaceId=${ws}`, {
      as: member({ [other]: 'admin' }, { ws }),
    });

    expect(listed.status).toBe(404);
    expect(listed.body.code).toBe('PROMPT.NOT_FOUND');
    expect(restored.status).toBe(404);
    expect(named.status).toBe(404);
    expect(JSON.stringify([listed.body, restored.body, named.body])).not.toContain('Secret');
    expect((await versions(id, ws, adminOf(ws))).versions[0]!.template).toBe('Newer {topic}');
  });
});

describe('restoring a version', () => {
  it('when an admin restores version 1, then a NEW version holds its fields, the prompt shows them, and history keeps every version', async () => {
    const ws = newWorkspaceId();
    const as = adminOf(ws);
    const { id } = await createPrompt(ws, as, { name: 'Original' });
    await edit(id, ws, as, { template: 'Changed {topic}', name: 'Changed' });

    const res = await restore(id, ws, 1, as, { currentVersion: 2 });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Original', template: 'First {topic}' });
    const detail = await h.call('GET', `/api/prompts/${id}?workspaceId=${ws}`, { as });
    expect(detail.body).toMatchObject({ name: 'Original', template: 'First {topic}' });
    const listed = await versions(id, ws, as);
    expect(listed.versions.map((v) => [v.version, v.template])).toEqual([
      [3, 'First {topic}'],
      [2, 'Changed {topic}'],
      [1, 'First {topic}'],
    ]);
    expect(listed.versions[0]!.editedBy).toBe(as!.uid);
  });

  it('when the version does not exist, then 404 says which version was not found and nothing changes', async () => {
    const ws = newWorkspaceId();
    const as = adminOf(ws);
    const { id } = await createPrompt(ws, as);

    const res = await restore(id, ws, 7, as);

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('PROMPT.VERSION_NOT_FOUND');
    expect(res.body.message).toContain('Version 7');
    expect((await versions(id, ws, as)).versions).toHaveLength(1);
  });

  it('when a version fell to retention, then it is no longer listed and restoring it is 404', async () => {
    const ws = newWorkspaceId();
    const as = adminOf(ws);
    const { id } = await createPrompt(ws, as);
    for (let i = 1; i <= KEEP_VERSIONS + 1; i++)
      await edit(id, ws, as, { template: `Edit ${i} {topic}` });

    const listed = await versions(id, ws, as);

    expect(listed.versions.map((v) => v.version)).not.toContain(1);
    expect(listed.versions[0]!.template).toBe(`Edit ${KEEP_VERSIONS + 1} {topic}`);
    expect((await restore(id, ws, 1, as)).status).toBe(404);
  });

  it('when a member who is not an admin restores, then 403 and the prompt is unchanged', async () => {
    const ws = newWorkspaceId();
    const { id } = await createPrompt(ws, adminOf(ws));
    await edit(id, ws, adminOf(ws), { template: 'Kept {topic}' });

    const res = await restore(id, ws, 1, userOf(ws));

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('AUTH.FORBIDDEN');
    expect((await versions(id, ws, adminOf(ws))).versions[0]!.template).toBe('Kept {topic}');
  });

  it('when the prompt was edited after the admin looked (currentVersion is stale), then 409 and the newer edit stays', async () => {
    const ws = newWorkspaceId();
    const as = adminOf(ws);
    const { id } = await createPrompt(ws, as);
    await edit(id, ws, as, { template: 'Someone else {topic}' });

    const res = await restore(id, ws, 1, as, { currentVersion: 1 });

    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PROMPT.CONFLICT');
    expect(res.body.message).toMatch(/changed by someone else/);
    expect((await versions(id, ws, as)).versions.map((v) => v.template)).toEqual([
      'Someone else {topic}',
      'First {topic}',
    ]);
  });

  it('when two admins restore at the same moment from the same version, then one wins and the other gets 409', async () => {
    const ws = newWorkspaceId();
    const { id } = await createPrompt(ws, adminOf(ws));
    await edit(id, ws, adminOf(ws), { template: 'Second {topic}' });

    const answers = await Promise.all([
      restore(id, ws, 1, adminOf(ws), { currentVersion: 2 }),
      restore(id, ws, 2, adminOf(ws), { currentVersion: 2 }),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await versions(id, ws, adminOf(ws))).versions.map((v) => v.version)).toEqual([3, 2, 1]);
  });

  it('when an edit lands between the restore reading the prompt and writing it, then 409 and the edit is not lost', async () => {
    const ws = newWorkspaceId();
    const as = adminOf(ws);
    const { id } = await createPrompt(ws, as);
    await edit(id, ws, as, { template: 'Second {topic}' });
    const prompts = h.domain.prompts;
    const racing = {
      ...h.domain,
      prompts: {
        ...prompts,
        updateIfUnchanged: async (...args: Parameters<typeof prompts.updateIfUnchanged>) => {
          await edit(id, ws, as, { template: 'Concurrent {topic}' });
          return prompts.updateIfUnchanged(...args);
        },
      },
    };
    const ctx: TrustedContext = {
      uid: as!.uid!,
      sa: false,
      roles: { [String(ws)]: 'admin' },
      ws,
      role: 'admin',
      rid: 'test',
      ip: '127.0.0.1',
    };

    const failure = await restoreVersion(racing, ctx, id, 1, undefined, ws).catch(
      (err: unknown) => err,
    );

    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 409, code: 'PROMPT.CONFLICT' });
    const listed = await versions(id, ws, as);
    expect(listed.versions[0]).toMatchObject({ version: 3, template: 'Concurrent {topic}' });
    const detail = await h.call('GET', `/api/prompts/${id}?workspaceId=${ws}`, { as });
    expect(detail.body.template).toBe('Concurrent {topic}');
  });
});
