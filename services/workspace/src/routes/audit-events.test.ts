import type { Workspace } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import {
  identityEventsOf,
  member,
  newUserId,
  startHarness,
  superAdmin,
  uniqueName,
  waitFor,
  type Harness,
} from '../test-support/harness';

// The audit log (issue 17): each administrative act of this service publishes an
// `audit.recorded` event from the same outbox write as the act (the auth service appends
// it to the log): memberships and roles, provider keys and base URLs, never a key.

jest.setTimeout(30_000);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let t: Harness;
const sa = superAdmin();

beforeAll(async () => {
  t = await startHarness({ PROVIDER_URL_ALLOWED_ORIGINS: 'https://llm.example.com' });
}, 90_000);
afterAll(() => t?.stop(), 60_000);

async function createWorkspace(): Promise<Workspace> {
  const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: uniqueName() } });
  expect(res.status).toBe(201);
  return res.body;
}

type Act = { action: string; targetId: string; workspaceId: number | null };
const audits = () =>
  t.events.filter((e): e is Envelope<Act & Record<string, unknown>> => e.type === 'audit.recorded');

/** Waits until `count` audit events of the workspace and action arrived. */
async function auditsOf(workspaceId: number, action: string, count = 1) {
  return waitFor(() => {
    const found = audits().filter(
      (e) => e.data.workspaceId === workspaceId && e.data.action === action,
    );
    return found.length >= count ? found : undefined;
  }, `${count} ${action} audit events`);
}

describe('audit events of the workspace service', () => {
  it('when an admin adds a member, changes the role and removes them, then each change is audited with its roles, and the gateway never sees the audit', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    const admin = member({ [workspace.id]: 'admin' });
    const path = `/api/workspaces/${workspace.id}/users`;

    const added = await t.call('POST', path, { as: sa, body: { userId, role: 'user' } });
    // Another admin stays, so the member may step down again.
    await t.call('POST', path, { as: sa, body: { userId: newUserId(), role: 'admin' } });
    const changed = await t.call('PATCH', `${path}/${userId}`, {
      as: admin,
      body: { role: 'admin' },
    });
    const removed = await t.call('DELETE', `${path}/${userId}`, { as: sa });
    expect([added.status, changed.status, removed.status]).toEqual([201, 200, 204]);

    await auditsOf(workspace.id, 'membership.changed', 4);
    const entries = audits().filter((e) => e.data.targetId === userId);

    expect(entries.map((e) => [e.data.actorId, e.data.before, e.data.after])).toEqual([
      [sa?.uid, { role: null }, { role: 'user' }],
      [admin?.uid, { role: 'user' }, { role: 'admin' }],
      [sa?.uid, { role: 'admin' }, { role: null }],
    ]);
    const toGateway = [added, changed, removed].flatMap((res) => identityEventsOf(res.headers));
    expect(toGateway.map((e) => e.type)).toEqual(Array(3).fill('membership.changed'));
  });

  it('when a provider key and base URL are set and removed, then each is audited and the key is never in an event', async () => {
    const workspace = await createWorkspace();
    const key = `sk-audit-${Math.random().toString(36).slice(2, 12)}-abcd1234`;
    const admin = member({ [workspace.id]: 'admin' });
    const settings = `/api/workspaces/${workspace.id}/settings`;

    const putKey = await t.call('PUT', `${settings}/openai_api_key`, {
      as: admin,
      body: { value: key },
    });
    const putUrl = await t.call('PUT', `${settings}/openai_base_url`, {
      as: admin,
      body: { value: 'https://llm.example.com/v1' },
    });
    const delKey = await t.call('DELETE', `${settings}/openai_api_key`, { as: admin });
    expect([putKey.status, putUrl.status, delKey.status]).toEqual([200, 200, 204]);

    const [keyChanged] = await auditsOf(workspace.id, 'settings.api-key-changed');
    const [urlChanged] = await auditsOf(workspace.id, 'settings.base-url-changed');
    const [keyRemoved] = await auditsOf(workspace.id, 'settings.api-key-removed');

    expect(keyChanged!.data).toMatchObject({ actorId: admin?.uid, after: { apiKey: 'changed' } });
    expect(urlChanged!.data).toMatchObject({ after: { baseUrl: 'https://llm.example.com/v1' } });
    expect(keyRemoved!.data).toMatchObject({ after: { apiKey: null } });
    const published = JSON.stringify(t.events);
    expect(published).not.toContain(key);
    expect(published).not.toContain(key.slice(3, -4));
  });

  it('when an admin changes the default models, then each change is audited once with the model before and after', async () => {
    const workspace = await createWorkspace();
    const admin = member({ [workspace.id]: 'admin' });

    const first = await t.call('PUT', '/api/settings/default_text_model', {
      as: admin,
      body: { value: 'gpt-4-turbo' },
    });
    const second = await t.call('PUT', '/api/settings/default_text_model', {
      as: admin,
      body: { value: 'gpt-3.5-turbo' },
    });
    const image = await t.call('PUT', '/api/settings/default_image_model', {
      as: admin,
      body: { value: 'dall-e-3' },
    });
    expect([first.status, second.status, image.status]).toEqual([200, 200, 200]);

    const changes = await auditsOf(workspace.id, 'settings.default-model-changed', 3);

    await new Promise((resolve) => setTimeout(resolve, 300)); // a duplicate would show now
    const all = audits().filter(
      (e) =>
        e.data.workspaceId === workspace.id && e.data.action === 'settings.default-model-changed',
    );

    expect(all).toHaveLength(3);
    // The image model's event may overtake the text model's (two documents, two flushes).
    const ofText = changes.filter((e) => e.data.targetId.endsWith('text_model'));
    expect(ofText.map((e) => e.data.before)).toEqual([
      { default_text_model: null },
      { default_text_model: 'gpt-4-turbo' },
    ]);
    expect(all.map((e) => [e.data.actorId, e.data.targetId, e.data.before, e.data.after])).toEqual(
      expect.arrayContaining([
        [
          admin?.uid,
          `workspace:${workspace.id}:default_text_model`,
          { default_text_model: null },
          { default_text_model: 'gpt-4-turbo' },
        ],
        [
          admin?.uid,
          `workspace:${workspace.id}:default_text_model`,
          { default_text_model: 'gpt-4-turbo' },
          { default_text_model: 'gpt-3.5-turbo' },
        ],
        [
          admin?.uid,
          `workspace:${workspace.id}:default_image_model`,
          { default_image_model: null },
          { default_image_model: 'dall-e-3' },
        ],
      ]),
    );
  });

  it('when the super admin creates, renames, gives a logo to and deletes a workspace, then each act is audited', async () => {
    const workspace = await createWorkspace();
    const newName = uniqueName('Renamed');
    const renamed = await t.call('PATCH', `/api/workspaces/${workspace.id}`, {
      as: sa,
      body: { name: newName },
    });
    const form = new FormData();
    form.append('logo', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'logo.png');
    const logo = await t.call('POST', `/api/workspaces/${workspace.id}/logo`, { as: sa, form });
    const deleted = await t.call('DELETE', `/api/workspaces/${workspace.id}`, { as: sa });
    expect([renamed.status, logo.status, deleted.status]).toEqual([200, 200, 204]);

    const [created] = await auditsOf(workspace.id, 'workspace.created');
    const [updated] = await auditsOf(workspace.id, 'workspace.updated');
    const [logoChanged] = await auditsOf(workspace.id, 'workspace.logo-changed');
    const [removed] = await auditsOf(workspace.id, 'workspace.deleted');

    expect(created!.data).toMatchObject({ actorId: sa?.uid, after: { name: workspace.name } });
    expect(updated!.data).toMatchObject({
      before: { name: workspace.name },
      after: { name: newName },
    });
    expect(logoChanged!.data).toMatchObject({
      before: { logo: null },
      after: { contentType: 'image/png', size: PNG.length },
    });
    expect(removed!.data).toMatchObject({
      targetType: 'workspace',
      targetId: String(workspace.id),
    });
    const toGateway = identityEventsOf(deleted.headers).map((e) => e.type);
    expect(toGateway).toEqual(['workspace.deleted']);
  });
});
