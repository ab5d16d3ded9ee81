import OpenAI, { toFile } from 'openai';
import { PNG } from 'pngjs';
import { startProviderSim, type ProviderSim } from '../index';
import { buildClient, buildPng, delay, PNG_SIGNATURE } from '../testing/sim-test-kit';

let sim: ProviderSim;
let client: OpenAI;

beforeAll(async () => {
  sim = await startProviderSim();
  client = buildClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => sim.control.reset());

async function download(
  url: string,
): Promise<{ status: number; body: Buffer; type: string | null }> {
  const response = await fetch(url);
  return {
    status: response.status,
    body: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type'),
  };
}

describe('POST /v1/images/generations', () => {
  it('when dall-e-3 generates, then its URL serves a PNG until the URL expires', async () => {
    sim.control.set({ imageUrlTtlMs: 1000 });

    const result = await client.images.generate({
      model: 'dall-e-3',
      prompt: 'a red bicycle',
      size: '1024x1024',
    });
    const url = result.data?.[0]?.url ?? '';
    const fresh = await download(url);
    await delay(1100);
    const expired = await download(url);

    expect(url.startsWith(`${sim.origin}/files/`)).toBe(true);
    expect(result.data?.[0]?.b64_json).toBeUndefined();
    expect(fresh).toMatchObject({ status: 200, type: 'image/png' });
    const png = PNG.sync.read(fresh.body);
    expect([png.width, png.height]).toEqual([64, 64]);
    expect(expired.status).toBe(403);
    expect(sim.control.requests({ path: '/files' }).map((request) => request.status)).toEqual([
      200, 403,
    ]);
    expect(sim.control.requests({ path: '/v1/images' })[0]?.image).toMatchObject({
      prompt: 'a red bicycle',
      size: '1024x1024',
      n: 1,
    });
  });

  it('when the signature of an image URL is altered, then the download is refused', async () => {
    const result = await client.images.generate({ model: 'dall-e-3', prompt: 'a boat' });

    const tampered = await download(`${result.data![0]!.url!.replace(/sig=[^&]+/, 'sig=forged')}`);

    expect(tampered.status).toBe(403);
  });

  it('when gpt-image-1 generates, then b64_json decodes to a PNG and there is no URL', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'a green teapot' });

    const bytes = Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64');
    expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(result.data?.[0]?.url).toBeUndefined();
    expect(result.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('when two prompts are drawn, then the images differ, and the same prompt draws the same image', async () => {
    const draw = async (prompt: string) =>
      (await client.images.generate({ model: 'gpt-image-1', prompt })).data?.[0]?.b64_json;

    const [first, again, other] = [
      await draw('sunset'),
      await draw('sunset'),
      await draw('sunrise'),
    ];

    expect(first).toBe(again);
    expect(first).not.toBe(other);
  });

  it('when dall-e-3 is asked for two images, then the SDK gets a BadRequestError', async () => {
    await expect(
      client.images.generate({ model: 'dall-e-3', prompt: 'two cats', n: 2 }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('POST /v1/images/edits', () => {
  it('when gpt-image-1 edits an uploaded image, then the file arrives and the answer is a base64 PNG', async () => {
    const reference = buildPng('reference', 32);

    const result = await client.images.edit({
      model: 'gpt-image-1',
      prompt: 'make it blue',
      image: await toFile(reference, 'reference.png', { type: 'image/png' }),
    });

    expect(Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64').subarray(0, 8)).toEqual(
      PNG_SIGNATURE,
    );
    const [recorded] = sim.control.requests({ path: '/images/edits' });
    expect(recorded).toMatchObject({ model: 'gpt-image-1', status: 200 });
    expect(recorded?.image).toMatchObject({
      prompt: 'make it blue',
      files: [
        {
          field: 'image',
          filename: 'reference.png',
          mimeType: 'image/png',
          bytes: reference.length,
          detectedFormat: 'png',
          width: 32,
          height: 32,
        },
      ],
    });
  });

  it('when the uploaded file is not an image, then the SDK gets a BadRequestError', async () => {
    const error = await client.images
      .edit({
        model: 'gpt-image-1',
        prompt: 'edit',
        image: await toFile(Buffer.from('%PDF-1.7'), 'doc.pdf', { type: 'application/pdf' }),
      })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(sim.control.requests()[0]?.image?.files[0]).toMatchObject({
      mimeType: 'application/pdf',
      detectedFormat: 'pdf',
    });
  });
});
