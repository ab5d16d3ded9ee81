import type { Envelope } from '@aict/service-kit';
import {
  adminOf,
  buildPrompt,
  newWorkspaceId,
  startHarness,
  userOf,
  waitFor,
  type Harness,
} from '../test-support/harness';

// The audit log (issue 17): creating, editing and deleting a prompt and changing the
// workspace's default prompt each publish an `audit.recorded` event from the same outbox
// write as the act (the auth service appends it to the log), with the actor and what
// changed; never the template's text.

jest.setTimeout(30_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(() => h?.stop());

type Act = {
  actorId: string | null;
  workspaceId: number | null;
  action: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};
const audits = (workspaceId: number) =>
  h.events.filter(
    (e): e is Envelope<Act> =>
      e.type === 'audit.recorded' && (e.data as Act).workspaceId === workspaceId,
  );

/** Waits until `count` audit events of the workspace and action arrived. */
const auditsOf = (workspaceId: number, action: string, count = 1) =>
  waitFor(() => {
    const found = audits(workspaceId).filter((e) => e.data.action === action);
    return found.length >= count ? found : undefined;
  }, `${count} ${action} audit events`);

describe('audit events of the prompt service', () => {
  it('when an admin creates a default prompt, edits it, takes the default off and deletes it, then each act is audited once, without the template', async () => {
    const workspaceId = newWorkspaceId();
    const admin = adminOf(workspaceId);
    const template = 'Secret-ish house style for {product} in {language}, 7f3a9c.';
    const created = await h.call('POST', '/api/prompts', {
      as: admin,
      body: buildPrompt({ name: 'Launch copy', template, isDefault: true }),
    });
    expect(created.status).toBe(201);
    const promptId = created.body.id as string;
    const edited = await h.call('PUT', `/api/prompts/${promptId}`, {
      as: admin,
      body: { name: 'Launch copy v2', template: `${template} Shorter.` },
    });
    const undefaulted = await h.call('PUT', `/api/prompts/${promptId}`, {
      as: admin,
      body: { isDefault: false },
    });
    const deleted = await h.call('DELETE', `/api/prompts/${promptId}`, { as: admin });
    expect([edited.status, undefaulted.status, deleted.status]).toEqual([200, 200, 204]);

    const [create] = await auditsOf(workspaceId, 'prompt.created');
    const [edit] = await auditsOf(workspaceId, 'prompt.updated');
    const defaults = await auditsOf(workspaceId, 'prompt.default-changed', 2);
    const [remove] = await auditsOf(workspaceId, 'prompt.deleted');
    await new Promise((resolve) => setTimeout(resolve, 300)); // a duplicate would show now

    // Taking the default off is a default change, not an edit of the prompt.
    expect(
      audits(workspaceId)
        .map((e) => e.data.action)
        .sort(),
    ).toEqual([
      'prompt.created',
      'prompt.default-changed',
      'prompt.default-changed',
      'prompt.deleted',
      'prompt.updated',
    ]);
    expect(audits(workspaceId).every((e) => e.data.actorId === admin?.uid)).toBe(true);
    expect(create!.data).toMatchObject({
      targetId: promptId,
      after: { name: 'Launch copy', model: 'gpt-4o', isPublic: false },
    });
    expect(edit!.data.before).toMatchObject({ name: 'Launch copy' });
    expect(edit!.data.after).toMatchObject({ name: 'Launch copy v2' });
    expect(Object.keys(edit!.data.after!).sort()).toEqual(['name', 'template']);
    // Two versions of the default pointer, each flushed on its own: in either order.
    expect(defaults.map((e) => [e.data.before, e.data.after])).toEqual(
      expect.arrayContaining([
        [{ defaultPromptId: null }, { defaultPromptId: promptId }],
        [{ defaultPromptId: promptId }, { defaultPromptId: null }],
      ]),
    );
    expect(remove!.data).toMatchObject({ targetId: promptId, before: { name: 'Launch copy v2' } });
    expect(JSON.stringify(h.events)).not.toContain('7f3a9c');
  });

  it('when an admin restores a version, then the restore is audited once with the version and the fields it put back', async () => {
    const workspaceId = newWorkspaceId();
    const admin = adminOf(workspaceId);
    const created = await h.call('POST', '/api/prompts', {
      as: admin,
      body: buildPrompt({ name: 'Tagline', template: 'Write a tagline for {product}.' }),
    });
    const promptId = created.body.id as string;
    await h.call('PUT', `/api/prompts/${promptId}`, {
      as: admin,
      body: { name: 'Tagline, warm', template: 'Write a warm tagline for {product}.' },
    });
    const restored = await h.call('POST', `/api/prompts/${promptId}/versions/1/restore`, {
      as: admin,
      body: {},
    });
    expect(restored.status).toBe(200);

    const [restore] = await auditsOf(workspaceId, 'prompt.version-restored');
    await new Promise((resolve) => setTimeout(resolve, 300)); // a duplicate would show now
    expect(
      audits(workspaceId).filter((e) => e.data.action === 'prompt.version-restored'),
    ).toHaveLength(1);
    expect(restore!.data).toMatchObject({
      actorId: admin?.uid,
      targetId: promptId,
      before: { name: 'Tagline, warm' },
      after: { name: 'Tagline', restoredVersion: 1 },
    });
    expect(Object.keys(restore!.data.after!).sort()).toEqual([
      'name',
      'restoredVersion',
      'template',
    ]);
  });

  it('when a member is refused an edit, then nothing is audited', async () => {
    const workspaceId = newWorkspaceId();
    const created = await h.call('POST', '/api/prompts', {
      as: adminOf(workspaceId),
      body: buildPrompt(),
    });
    await auditsOf(workspaceId, 'prompt.created');

    const refused = await h.call('DELETE', `/api/prompts/${created.body.id}`, {
      as: userOf(workspaceId),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(refused.status).toBe(403);
    expect(audits(workspaceId).map((e) => e.data.action)).toEqual(['prompt.created']);
  });
});
