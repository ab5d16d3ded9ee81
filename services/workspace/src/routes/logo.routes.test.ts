import { randomUUID } from 'node:crypto';
import type { Workspace } from '@aict/contracts';
import { sweepOrphanObjects } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { isLogoReferenced } from '../domain/logo-objects';
import { pngDeclaring } from '@aict/service-kit/testing';
import {
  member,
  startHarness,
  superAdmin,
  uniqueName,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(30_000);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(64),
]);
const WEBP = (() => {
  const body = Buffer.concat([Buffer.from('WEBPVP8 '), Buffer.alloc(32)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
})();
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);

const sa = superAdmin();
let t: Harness;

beforeAll(async () => {
  t = await startHarness();
});
afterAll(() => t.stop());

async function createWorkspace(): Promise<Workspace> {
  const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: uniqueName() } });
  expect(res.status).toBe(201);
  return res.body;
}

function logoForm(
  bytes: Buffer,
  filename = 'logo.png',
  type = 'image/png',
  field = 'logo',
): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

const upload = (workspaceId: number, form: FormData, as = sa) =>
  t.call('POST', `/api/workspaces/${workspaceId}/logo`, { as, form });

describe('POST /api/workspaces/:id/logo', () => {
  it('when a super admin uploads a PNG, then its URL is answered and the workspace shows it', async () => {
    const workspace = await createWorkspace();

    const res = await upload(workspace.id, logoForm(PNG));

    expect(res.status).toBe(200);
    expect(res.body.logoUrl).toMatch(
      new RegExp(`^/api/workspaces/${workspace.id}/logo\\?v=[0-9a-f]{8}$`),
    );
    const list = await t.call('GET', '/api/workspaces', { as: sa });
    expect(list.body.find((w: Workspace) => w.id === workspace.id).logoUrl).toBe(res.body.logoUrl);
    const event = await t.waitForEvent(
      (e) =>
        e.type === 'workspace.updated' &&
        (e.data as { logoUrl?: string }).logoUrl === res.body.logoUrl,
    );
    expect(event.data).toMatchObject({ workspaceId: workspace.id });
  });

  it.each([
    ['a JPEG', JPEG, 'image/jpeg'],
    ['a WebP', WEBP, 'image/webp'],
  ])(
    'when %s is uploaded, then it is accepted and served with its own type',
    async (_what, bytes, type) => {
      const workspace = await createWorkspace();

      const res = await upload(
        workspace.id,
        logoForm(bytes, 'logo.bin', 'application/octet-stream'),
      );
      const served = await t.call('GET', res.body.logoUrl, { as: sa });

      expect(res.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
    },
  );

  it.each([
    ['an SVG renamed .png', SVG],
    ['an HTML page renamed .png', HTML],
  ])('when %s is uploaded, then it is refused with 400 FILE.INVALID_TYPE', async (_what, bytes) => {
    const workspace = await createWorkspace();

    const res = await upload(workspace.id, logoForm(bytes, 'logo.png', 'image/png'));

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'FILE.INVALID_TYPE',
      message: 'Only PNG, JPEG and WebP images are allowed.',
    });
    const list = await t.call('GET', '/api/workspaces', { as: sa });
    expect(list.body.find((w: Workspace) => w.id === workspace.id).logoUrl).toBeUndefined();
  });

  it('when the logo is larger than 2 MB, then it is refused with 413 FILE.TOO_LARGE', async () => {
    const workspace = await createWorkspace();
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);

    const res = await upload(workspace.id, logoForm(big));

    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'FILE.TOO_LARGE', message: 'The logo must be at most 2 MB.' });
  });

  it('when a small PNG declares 40000×40000 pixels, then it is refused with 413 naming the limit and not stored', async () => {
    const workspace = await createWorkspace();

    const res = await upload(workspace.id, logoForm(pngDeclaring(40_000, 40_000)));

    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'FILE.TOO_LARGE',
      message: 'The image must be at most 25 megapixels.',
    });
    expect(await t.service.deps.storage!.list(`workspaces/${workspace.id}/`)).toEqual([]);
  });

  it('when the request is not multipart or the field is not "logo", then 4xx', async () => {
    const workspace = await createWorkspace();

    const json = await t.call('POST', `/api/workspaces/${workspace.id}/logo`, {
      as: sa,
      body: { logo: 'x' },
    });
    const wrongField = await upload(workspace.id, logoForm(PNG, 'logo.png', 'image/png', 'image'));

    expect(json.status).toBe(415);
    expect(wrongField.status).toBe(400);
  });

  it('when a new logo replaces the old one, then the old object is removed from storage', async () => {
    const workspace = await createWorkspace();
    await upload(workspace.id, logoForm(PNG));
    const first = (await t.db.collection('workspaces').findOne({ _id: workspace.id } as never))
      ?.logo;

    const res = await upload(workspace.id, logoForm(JPEG, 'logo.jpg', 'image/jpeg'));

    expect(res.status).toBe(200);
    expect(await t.service.deps.storage!.stat(first.key)).toBeNull();
    const served = await t.call('GET', res.body.logoUrl, { as: sa });
    expect(served.headers.get('content-type')).toBe('image/jpeg');
  });
});

describe('GET /api/workspaces/:id/logo', () => {
  it('when a member asks for the logo, then the bytes come with their type, nosniff and a long cache', async () => {
    const workspace = await createWorkspace();
    const { body } = await upload(workspace.id, logoForm(PNG));

    const res = await t.call('GET', body.logoUrl, { as: member({ [workspace.id]: 'user' }) });

    expect(res.status).toBe(200);
    expect(res.bytes.equals(PNG)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });

  it('when someone outside the workspace asks for the logo, then 404', async () => {
    const [workspace, other] = [await createWorkspace(), await createWorkspace()];
    const { body } = await upload(workspace.id, logoForm(PNG));

    const res = await t.call('GET', body.logoUrl, { as: member({ [other.id]: 'admin' }) });

    expect(res.status).toBe(404);
    expect(res.bytes.includes(PNG)).toBe(false);
  });

  it('when the workspace has no logo, then 404', async () => {
    const workspace = await createWorkspace();

    const res = await t.call('GET', `/api/workspaces/${workspace.id}/logo`, { as: sa });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('FILE.NOT_FOUND');
  });

  it('when the workspace is deleted, then its logo objects are removed', async () => {
    const workspace = await createWorkspace();
    await upload(workspace.id, logoForm(PNG));

    await t.call('DELETE', `/api/workspaces/${workspace.id}`, { as: sa });

    expect(await t.service.deps.storage!.list(`workspaces/${workspace.id}/`)).toEqual([]);
  });
});

describe('POST /api/workspaces/:id/logo while the database fails', () => {
  it('when the workspace cannot be saved after the logo was stored, then 503 with Retry-After and no object is left behind', async () => {
    const workspace = await createWorkspace();
    const update = jest
      .spyOn(t.service.deps.mongo!.models.Workspace!.collection, 'findOneAndUpdate')
      .mockRejectedValueOnce(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), {
          name: 'MongoNetworkError',
        }),
      );

    const res = await upload(workspace.id, logoForm(PNG));
    update.mockRestore();

    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(res.body).toMatchObject({ code: 'DATABASE.UNAVAILABLE' });
    expect(await t.service.deps.storage!.list(`workspaces/${workspace.id}/`)).toEqual([]);
  });
});

describe('the orphan sweep of logos', () => {
  it('when a logo object exists that no workspace points to, then a sweep removes it and keeps the current logo', async () => {
    const workspace = await createWorkspace();
    expect((await upload(workspace.id, logoForm(PNG))).status).toBe(200);
    const storage = t.service.deps.storage!;
    const [current] = await storage.list(`workspaces/${workspace.id}/`);
    const orphan = `workspaces/${workspace.id}/logo/${randomUUID()}.png`;
    await storage.put(orphan, PNG, { contentType: 'image/png' });
    const WorkspaceModel = t.service.deps.mongo!.models.Workspace!;
    const d = {
      workspaces: { findById: (id: number) => WorkspaceModel.findById(id).lean() },
    } as unknown as DomainDeps;

    const result = await sweepOrphanObjects({
      store: storage,
      logger: t.service.deps.logger,
      prefix: `workspaces/${workspace.id}/`,
      isReferenced: (key) => isLogoReferenced(d, key),
      graceMs: 60_000,
      batch: 100,
      now: () => Date.now() + 3_600_000,
    });

    expect(result.removed).toEqual([orphan]);
    expect(await storage.list(`workspaces/${workspace.id}/`)).toEqual([current]);
  });
});
