import { randomBytes } from 'node:crypto';
import {
  ContentItem,
  generatedImageKey,
  WORKSPACE_EXPORT_ITEMS_HEADER,
  WorkspaceExportManifest,
} from '@aict/contracts';
import {
  adminOf,
  buildContent,
  buildImage,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  type Harness,
} from '../test-support/harness';
import { unzip } from '../test-support/unzip';
import { createLogger, createObjectStore } from '@aict/service-kit';
import { TEST_INFRA } from '@aict/service-kit/testing';

jest.setTimeout(90_000);

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a', 'hex'),
  randomBytes(4096), // stands for the pixels: the archive must hold these very bytes
]);

let h: Harness;
/** The generation service's bucket, where the export reads the images. */
const generationBucket = `t-gen-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
const images = createObjectStore(
  { ...TEST_INFRA.minio, bucket: generationBucket },
  createLogger('test', { level: 'silent' }),
);

beforeAll(async () => {
  // Pages of two items: the export reads several history pages.
  h = await startHarness({ HISTORY_PAGE_SIZE: '2', GENERATION_BUCKET: generationBucket });
  await images.ensureBucket();
});
afterAll(async () => {
  await images.removePrefix('workspaces/');
  await images.client.removeBucket(generationBucket);
  await h.stop();
});

/** A workspace with three texts, an image stored by the generation service and one whose bytes are gone. */
async function seedWorkspace() {
  const ws = newWorkspaceId();
  const texts = [
    buildContent({
      workspaceId: ws,
      title: 'Spring launch',
      content: 'Fresh ideas for spring.',
      metadata: { inputs: { topic: 'spring' } },
    }),
    buildContent({ workspaceId: ws, title: 'Summer', content: 'Sunny copy.' }),
    buildContent({ workspaceId: ws, title: 'Autumn', content: 'Leaves.', voiceFlags: ['leaves'] }),
  ];
  const image = buildImage({ workspaceId: ws, metadata: { inputs: { subject: 'a red fox' } } });
  const lost = buildImage({ workspaceId: ws });
  for (const c of [texts[0]!, image, texts[1]!, lost, texts[2]!]) await h.store(c);
  await images.put(generatedImageKey(ws, image.id), PNG, { contentType: 'image/png' });
  return { ws, texts, image, lost };
}

const exportOf = (ws: number, as: Parameters<Harness['call']>[2]['as']) =>
  h.call('GET', `/api/workspaces/${ws}/export`, { as });

describe('workspace export', () => {
  it('when an admin exports the workspace, then the zip holds every text as JSON and Markdown, each image with its metadata, and a manifest', async () => {
    const { ws, texts, image, lost } = await seedWorkspace();
    const other = buildContent({ workspaceId: newWorkspaceId(), title: 'Not theirs' });
    await h.store(other);

    const res = await exportOf(ws, adminOf(ws));

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="?workspace-${ws}-export-\\d{4}-\\d{2}-\\d{2}\\.zip"?$`),
    );
    expect(res.headers.get(WORKSPACE_EXPORT_ITEMS_HEADER)).toBe('5');
    const files = await unzip(res.bytes);
    expect([...files.keys()].sort()).toEqual(
      [
        ...texts.flatMap((t) => [`contents/${t.id}.json`, `contents/${t.id}.md`]),
        `images/${image.id}.png`,
        `images/${image.id}.json`,
        `images/${lost.id}.json`,
        'manifest.json',
      ].sort(),
    );
    expect([...files.keys()].at(-1)).toBe('manifest.json');

    const first = ContentItem.parse(
      JSON.parse(files.get(`contents/${texts[0]!.id}.json`)!.toString()),
    );
    expect(first).toMatchObject({
      id: texts[0]!.id,
      title: 'Spring launch',
      content: 'Fresh ideas for spring.',
      workspaceId: ws,
      metadata: { inputs: { topic: 'spring' } },
      review: { state: 'draft' },
    });
    expect(files.get(`contents/${texts[2]!.id}.md`)!.toString()).toBe(
      [
        '# Autumn',
        '',
        '- Model: gpt-4o',
        `- Created: ${texts[2]!.createdAt}`,
        '- Author: u-owner',
        '- Review: draft',
        '- Words to avoid: leaves',
        '',
        '## Inputs',
        '',
        '- message: Hello',
        '',
        '## Text',
        '',
        'Leaves.',
        '',
      ].join('\n'),
    );
    expect(files.get(`images/${image.id}.png`)!.equals(PNG)).toBe(true);
    expect(JSON.parse(files.get(`images/${image.id}.json`)!.toString())).toMatchObject({
      id: image.id,
      contentType: 'image',
      model: 'dall-e-3',
      metadata: { inputs: { subject: 'a red fox' } },
    });
    const manifest = WorkspaceExportManifest.parse(
      JSON.parse(files.get('manifest.json')!.toString()),
    );
    expect(manifest).toMatchObject({ workspaceId: ws, texts: 3, images: 2, imagesMissing: 1 });
  });

  it('when a super administrator exports it, then the zip comes; a deleted content is not in it', async () => {
    const { ws, texts } = await seedWorkspace();
    const admin = adminOf(ws);
    expect(
      (await h.call('DELETE', `/api/contents/${texts[1]!.id}?workspaceId=${ws}`, { as: admin }))
        .status,
    ).toBe(204);

    const res = await exportOf(ws, superAdmin());

    expect(res.status).toBe(200);
    const files = await unzip(res.bytes);
    expect(files.has(`contents/${texts[0]!.id}.json`)).toBe(true);
    expect(files.has(`contents/${texts[1]!.id}.json`)).toBe(false);
    expect(files.has(`contents/${texts[1]!.id}.md`)).toBe(false);
    expect(JSON.parse(files.get('manifest.json')!.toString())).toMatchObject({ texts: 2 });
  });

  it('when the workspace has no contents, then the zip holds only the manifest', async () => {
    const ws = newWorkspaceId();

    const res = await exportOf(ws, adminOf(ws));

    expect(res.status).toBe(200);
    expect(res.headers.get(WORKSPACE_EXPORT_ITEMS_HEADER)).toBe('0');
    const files = await unzip(res.bytes);
    expect([...files.keys()]).toEqual(['manifest.json']);
  });

  it('when a member who is no admin asks, then 403 and no archive', async () => {
    const ws = newWorkspaceId();
    await h.store(buildContent({ workspaceId: ws }));

    const res = await exportOf(ws, userOf(ws));

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('AUTH.FORBIDDEN');
  });

  it('when an admin of another workspace asks, then 404 as if it did not exist', async () => {
    const ws = newWorkspaceId();
    await h.store(buildContent({ workspaceId: ws }));

    const res = await exportOf(ws, adminOf(newWorkspaceId()));

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('WORKSPACE.NOT_FOUND');
  });

  it('when the workspace id is not one, then 400', async () => {
    const res = await h.call('GET', '/api/workspaces/abc/export', { as: superAdmin() });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION.FAILED');
  });
});
