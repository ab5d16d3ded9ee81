import { sweepOrphanObjects } from '@aict/service-kit';
import { pngDeclaring } from '@aict/service-kit/testing';
import sharp from 'sharp';
import { isReferenceImageReferenced } from '../domain/reference-image-objects';
import { imagesOf } from '../domain/view-prompt';
import {
  adminOf,
  buildImagePrompt,
  buildPrompt,
  newWorkspaceId,
  startHarness,
  userOf,
  type Caller,
  type Harness,
} from '../test-support/harness';
import {
  htmlPage,
  jpegImage,
  pngImage,
  referenceForm,
  svgImage,
  webpImage,
} from '../test-support/images';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function createImagePrompt(
  workspaceId: number,
  overrides: Record<string, unknown> = {},
  as: Caller = adminOf(workspaceId),
) {
  const res = await h.call('POST', '/api/prompts', {
    as,
    body: buildImagePrompt({ workspaceId, ...overrides }),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; userId: string };
}

function upload(
  promptId: string,
  workspaceId: number,
  form: FormData,
  as: Caller = adminOf(workspaceId),
) {
  return h.call('POST', `/api/prompts/${promptId}/reference-image`, {
    as,
    form,
    headers: { 'x-workspace-id': String(workspaceId) },
  });
}

/** The MinIO keys of the prompt's stored reference images, in order. */
async function storedKeys(promptId: string): Promise<string[]> {
  return (await imagesOf(h.domain, promptId)).map((image) => image.key);
}

const stat = (key: string) => h.service.deps.storage!.stat(key);
const objectsOf = (workspaceId: number, promptId: string) =>
  h.service.deps.storage!.list(`workspaces/${workspaceId}/prompts/${promptId}/`);

describe('uploading a reference image', () => {
  it('when an admin uploads a PNG to a gpt-image-1 prompt, then the prompt answers with its gateway URL and MinIO holds it', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);

    const res = await upload(prompt.id, ws, referenceForm(await pngImage(), { index: 0 }));

    expect(res.status).toBe(200);
    const url = res.body.referenceImageUrls[0] as string;
    expect(url).toMatch(new RegExp(`^/api/prompts/${prompt.id}/reference-images/img[0-9a-f]{16}$`));
    expect(res.body).toMatchObject({
      id: prompt.id,
      referenceImageUrl: url,
      referenceImageUrls: [url],
      template: expect.any(String),
    });
    const [key] = await storedKeys(prompt.id);
    expect(key).toMatch(
      new RegExp(`^workspaces/${ws}/prompts/${prompt.id}/img[0-9a-f]{16}\\.png$`),
    );
    expect(await stat(key!)).toMatchObject({ contentType: 'image/png' });
  });

  it('when the image is fetched by whoever may see the prompt, then its bytes come; others get 404 and the signed-out 401', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);
    const uploaded = await upload(prompt.id, ws, referenceForm(await pngImage(12, 7)));
    const url = `${uploaded.body.referenceImageUrls[0]}?workspaceId=${ws}`;

    const asUser = await h.call('GET', url, { as: userOf(ws) });
    const asStranger = await h.call(
      'GET',
      `${uploaded.body.referenceImageUrls[0]}?workspaceId=${newWorkspaceId()}`,
      { as: adminOf(newWorkspaceId()) },
    );
    const signedOut = await h.call('GET', url, { as: null });

    expect(asUser.status).toBe(200);
    expect(asUser.headers.get('content-type')).toBe('image/png');
    expect(asUser.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await sharp(asUser.bytes).metadata()).toMatchObject({
      format: 'png',
      width: 12,
      height: 7,
    });
    expect(asStranger.status).toBe(404);
    expect(signedOut.status).toBe(401);
  });

  it.each([
    ['JPEG', jpegImage, 'image/jpeg', 'jpg'],
    ['WebP', webpImage, 'image/webp', 'webp'],
  ])(
    'when a %s is uploaded, then it is stored with its own type',
    async (_name, make, mime, ext) => {
      const ws = newWorkspaceId();
      const prompt = await createImagePrompt(ws);

      const res = await upload(prompt.id, ws, referenceForm(await make(), { type: mime }));

      expect(res.status).toBe(200);
      const [key] = await storedKeys(prompt.id);
      expect(key!.endsWith(`.${ext}`)).toBe(true);
      expect(await stat(key!)).toMatchObject({ contentType: mime });
    },
  );

  it.each([
    ['an SVG', svgImage(), 'drawing.svg', 'image/svg+xml'],
    ['an HTML page renamed .png', htmlPage(), 'innocent.png', 'image/png'],
    [
      'a PNG signature followed by HTML',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), htmlPage()]),
      'fake.png',
      'image/png',
    ],
    ['a text file', Buffer.from('just text'), 'notes.txt', 'text/plain'],
  ])(
    'when %s is uploaded, then 400 "Please upload an image file." and nothing is stored',
    async (_case, bytes, filename, type) => {
      const ws = newWorkspaceId();
      const prompt = await createImagePrompt(ws);

      const res = await upload(prompt.id, ws, referenceForm(bytes, { filename, type }));

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'FILE.INVALID_TYPE',
        message: 'Please upload an image file.',
        details: { title: 'Invalid file' },
      });
      expect(await storedKeys(prompt.id)).toEqual([]);
      expect(await objectsOf(ws, prompt.id)).toEqual([]);
    },
  );

  it('when a fifth image is uploaded, then 400 "Maximum images reached" with the SPEC text, and four stay', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);
    for (let i = 0; i < 4; i++) {
      const ok = await upload(prompt.id, ws, referenceForm(await pngImage(4 + i, 4)));
      expect(ok.status).toBe(200);
    }

    const res = await upload(prompt.id, ws, referenceForm(await pngImage()));

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'PROMPT.REFERENCE_LIMIT',
      message: 'You can only upload up to 4 reference images.',
      details: { title: 'Maximum images reached' },
    });
    expect(await storedKeys(prompt.id)).toHaveLength(4);
    expect(await objectsOf(ws, prompt.id)).toHaveLength(4);
  });

  it('when five uploads race for the last three places, then three are kept and answered 200, two refused', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);
    await upload(prompt.id, ws, referenceForm(await pngImage()));

    const answers = await Promise.all(
      Array.from({ length: 5 }, async (_, i) =>
        upload(prompt.id, ws, referenceForm(await pngImage(5 + i, 5))),
      ),
    );

    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(accepted).toHaveLength(3);
    expect(refused.map((a) => a.body.code)).toEqual([
      'PROMPT.REFERENCE_LIMIT',
      'PROMPT.REFERENCE_LIMIT',
    ]);
    const stored = await imagesOf(h.domain, prompt.id);
    expect(stored).toHaveLength(4);
    for (const answer of accepted) {
      const urls = answer.body.referenceImageUrls as string[];
      expect(stored.some((image) => urls.at(-1)!.endsWith(image.id))).toBe(true);
    }
    expect(await objectsOf(ws, prompt.id)).toHaveLength(4);
  });

  it('when an image is uploaded with the index of an existing one, then it replaces it and the old object goes', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);
    await upload(prompt.id, ws, referenceForm(await pngImage()));
    await upload(prompt.id, ws, referenceForm(await pngImage(9, 9)));
    const [first, second] = await storedKeys(prompt.id);

    const res = await upload(prompt.id, ws, referenceForm(await jpegImage(), { index: 0 }));

    expect(res.status).toBe(200);
    const keys = await storedKeys(prompt.id);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(second);
    expect(keys[0]).not.toBe(first);
    expect(keys[0]!.endsWith('.jpg')).toBe(true);
    expect(await stat(first!)).toBeNull();
  });

  it.each([
    ['a text prompt', { template: 'Hi {name}', contentType: 'text', model: 'gpt-4o' }],
    ['an image prompt on dall-e-3', { model: 'dall-e-3' }],
  ])(
    'when an image is uploaded to %s, then 400 says reference images are for gpt-image-1',
    async (_case, overrides) => {
      const ws = newWorkspaceId();
      const created = await h.call('POST', '/api/prompts', {
        as: adminOf(ws),
        body: buildPrompt({ workspaceId: ws, ...buildImagePrompt(), ...overrides }),
      });

      const res = await upload(created.body.id, ws, referenceForm(await pngImage()));

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'PROMPT.REFERENCE_NOT_ALLOWED',
        message: 'Reference images can only be added to image prompts that use gpt-image-1.',
      });
    },
  );

  it('when the file is over the size limit, then 413 names the limit and nothing is stored', async () => {
    const small = await startHarness({ REFERENCE_IMAGE_MAX_BYTES: '2048' });
    try {
      const ws = newWorkspaceId();
      const created = await small.call('POST', '/api/prompts', {
        as: adminOf(ws),
        body: buildImagePrompt({ workspaceId: ws }),
      });
      const noisy = await sharp(
        Buffer.from(Array.from({ length: 64 * 64 * 3 }, () => Math.floor(Math.random() * 256))),
        {
          raw: { width: 64, height: 64, channels: 3 },
        },
      )
        .png()
        .toBuffer();

      const res = await small.call('POST', `/api/prompts/${created.body.id}/reference-image`, {
        as: adminOf(ws),
        form: referenceForm(noisy),
        headers: { 'x-workspace-id': String(ws) },
      });

      expect(noisy.length).toBeGreaterThan(2048);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({
        code: 'FILE.TOO_LARGE',
        message: 'The reference image must be at most 2 KB.',
      });
      expect(await small.service.deps.storage!.list(`workspaces/${ws}/`)).toEqual([]);
    } finally {
      await small.stop();
    }
  });

  it('when the image has more pixels than allowed, then 413 and nothing is stored', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);

    const res = await upload(prompt.id, ws, referenceForm(await pngImage(6000, 5000)));

    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The reference image must be at most 25 megapixels.');
    expect(await objectsOf(ws, prompt.id)).toEqual([]);
  });

  it('when a small PNG declares 40000×40000 pixels, then 413 names the limit and nothing is stored', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);

    const res = await upload(prompt.id, ws, referenceForm(pngDeclaring(40_000, 40_000)));

    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The reference image must be at most 25 megapixels.');
    expect(await objectsOf(ws, prompt.id)).toEqual([]);
  });

  it('when the upload has no file, then 400 names the field', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);
    const form = new FormData();
    form.append('index', '0');

    const res = await upload(prompt.id, ws, form);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The field 'reference' needs an image file");
  });

  it('when the owner, now a plain user, uploads, then it is saved and the answer is the summary', async () => {
    const ws = newWorkspaceId();
    const owner = adminOf(ws);
    const prompt = await createImagePrompt(ws, {}, owner);
    const demoted = { ...owner, roles: { [ws]: 'user' as const }, role: null };

    const res = await upload(prompt.id, ws, referenceForm(await pngImage()), demoted);

    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('template');
    expect(res.body).not.toHaveProperty('referenceImageUrls');
    expect(await storedKeys(prompt.id)).toHaveLength(1);
  });

  it("when a plain user uploads to someone else's prompt, then 403 and nothing is stored", async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);

    const res = await upload(prompt.id, ws, referenceForm(await pngImage()), userOf(ws));

    expect(res.status).toBe(403);
    expect(await objectsOf(ws, prompt.id)).toEqual([]);
  });
});

describe('removing reference images', () => {
  async function promptWithImages(ws: number, count: number) {
    const prompt = await createImagePrompt(ws);
    let last;
    for (let i = 0; i < count; i++)
      last = await upload(prompt.id, ws, referenceForm(await pngImage(4 + i, 4)));
    return { prompt, urls: last!.body.referenceImageUrls as string[] };
  }

  it('when one is removed by index, then the updated prompt comes back and its object is gone', async () => {
    const ws = newWorkspaceId();
    const { prompt, urls } = await promptWithImages(ws, 3);
    const keys = await storedKeys(prompt.id);

    const res = await h.call('DELETE', `/api/prompts/${prompt.id}/reference-image/1`, {
      as: adminOf(ws),
      headers: { 'x-workspace-id': String(ws) },
    });

    expect(res.status).toBe(200);
    expect(res.body.referenceImageUrls).toEqual([urls[0], urls[2]]);
    expect(await stat(keys[1]!)).toBeNull();
    expect(await stat(keys[0]!)).not.toBeNull();
    expect(await stat(keys[2]!)).not.toBeNull();
  });

  it('when an index holds no image, then 404', async () => {
    const ws = newWorkspaceId();
    const { prompt } = await promptWithImages(ws, 1);

    const res = await h.call('DELETE', `/api/prompts/${prompt.id}/reference-image/3`, {
      as: adminOf(ws),
      headers: { 'x-workspace-id': String(ws) },
    });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('PROMPT.REFERENCE_NOT_FOUND');
  });

  it("when 'Remove All' is sent (referenceImageUrl null, referenceImageUrls []), then every image and object goes", async () => {
    const ws = newWorkspaceId();
    const { prompt } = await promptWithImages(ws, 2);
    const keys = await storedKeys(prompt.id);

    const res = await h.call('PUT', `/api/prompts/${prompt.id}`, {
      as: adminOf(ws),
      body: { referenceImageUrl: null, referenceImageUrls: [], workspaceId: ws },
    });

    expect(res.status).toBe(200);
    expect(res.body.referenceImageUrls).toEqual([]);
    expect(res.body).not.toHaveProperty('referenceImageUrl');
    for (const key of keys) expect(await stat(key)).toBeNull();
    expect(await objectsOf(ws, prompt.id)).toEqual([]);
  });

  it('when an update keeps some of the URLs, then exactly those stay', async () => {
    const ws = newWorkspaceId();
    const { prompt, urls } = await promptWithImages(ws, 3);

    const res = await h.call('PUT', `/api/prompts/${prompt.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { referenceImageUrls: [urls[2], urls[0]] },
    });

    expect(res.body.referenceImageUrls).toEqual([urls[2], urls[0]]);
    expect(await objectsOf(ws, prompt.id)).toHaveLength(2);
  });

  it('when an update leaves the reference fields out, then the images stay', async () => {
    const ws = newWorkspaceId();
    const { prompt, urls } = await promptWithImages(ws, 2);

    const res = await h.call('PUT', `/api/prompts/${prompt.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
      body: { name: 'Renamed' },
    });

    expect(res.body.referenceImageUrls).toEqual(urls);
  });

  it('when the prompt is deleted, then its objects go', async () => {
    const ws = newWorkspaceId();
    const { prompt } = await promptWithImages(ws, 2);
    const keys = await storedKeys(prompt.id);

    await h.call('DELETE', `/api/prompts/${prompt.id}?workspaceId=${ws}`, { as: adminOf(ws) });

    for (const key of keys) expect(await stat(key)).toBeNull();
  });
});

describe('the orphan sweep of reference images', () => {
  it('when an image object exists that the prompt does not hold, then a sweep removes it and keeps the prompt’s images', async () => {
    const ws = newWorkspaceId();
    const prompt = await createImagePrompt(ws);
    expect((await upload(prompt.id, ws, referenceForm(await pngImage()))).status).toBe(200);
    const [kept] = await storedKeys(prompt.id);
    // What an outage between the object and the list of images leaves behind.
    const orphan = `workspaces/${ws}/prompts/${prompt.id}/img${'0'.repeat(16)}.png`;
    await h.service.deps.storage!.put(orphan, await pngImage(), { contentType: 'image/png' });

    const result = await sweepOrphanObjects({
      store: h.service.deps.storage!,
      logger: h.service.deps.logger,
      prefix: `workspaces/${ws}/`,
      isReferenced: (key) => isReferenceImageReferenced(h.domain, key),
      graceMs: 60_000,
      batch: 100,
      now: () => Date.now() + 3_600_000,
    });

    expect(result.removed).toEqual([orphan]);
    expect(await objectsOf(ws, prompt.id)).toEqual([kept]);
  });
});
