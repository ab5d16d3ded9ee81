import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createHash, randomBytes } from 'node:crypto';
import { createObjectStore, type ObjectStore } from './storage';
import { captureLogs, TEST_MINIO, uniqueName } from './test-support';

function chunked(data: Buffer, chunkSize = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += chunkSize) yield data.subarray(i, i + chunkSize);
    })(),
  );
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('createObjectStore on MinIO', () => {
  const { logger } = captureLogs('storage-test');
  const bucket = uniqueName('sk-storage', '-');
  let store: ObjectStore;

  beforeAll(async () => {
    store = createObjectStore({ ...TEST_MINIO, bucket }, logger);
    await store.ensureBucket();
    await store.ensureBucket(); // idempotent
  });

  afterAll(async () => {
    for (const key of await store.list('')) await store.remove(key);
    await store.client.removeBucket(bucket);
  });

  it('when a stream of unknown size is put, then get returns the same bytes and stat the facts', async () => {
    const data = randomBytes(9 * 1024 * 1024 + 123); // more than one 8 MiB part
    const key = 'ws-1/attachments/big.bin';

    await store.put(key, chunked(data), {
      contentType: 'application/octet-stream',
      metadata: { 'original-name': 'big.bin' },
    });
    const got = await store.get(key);
    const info = await store.stat(key);

    expect(got).not.toBeNull();
    expect(sha(await buffer(got!.stream))).toBe(sha(data));
    expect(info).toMatchObject({
      key,
      size: data.length,
      contentType: 'application/octet-stream',
      metadata: { 'original-name': 'big.bin' },
    });
    expect(info!.lastModified).toBeInstanceOf(Date);
  }, 30_000);

  it('when a Buffer with a content type is put, then stat reports it and a range read returns a slice', async () => {
    const key = 'ws-1/logo/logo.png';
    const data = Buffer.from('0123456789abcdef');

    await store.put(key, data, { contentType: 'image/png' });

    expect(await store.stat(key)).toMatchObject({ size: 16, contentType: 'image/png' });
    const slice = await store.get(key, { offset: 4, length: 6 });
    expect((await buffer(slice!.stream)).toString()).toBe('456789');
  });

  it('when an object is removed, then stat and get say null, and removing again is fine', async () => {
    const key = 'ws-2/tmp/gone.txt';
    await store.put(key, Readable.from([Buffer.from('bye')]), {
      contentType: 'text/plain',
      size: 3,
    });

    await store.remove(key);

    expect(await store.stat(key)).toBeNull();
    expect(await store.get(key)).toBeNull();
    await expect(store.remove(key)).resolves.toBeUndefined();
  });

  it('when a prefix is removed, then only the objects under it go', async () => {
    for (const key of ['ws-3/a.txt', 'ws-3/sub/b.txt', 'ws-30/c.txt']) {
      await store.put(key, Buffer.from(key), { contentType: 'text/plain' });
    }

    expect(await store.removePrefix('ws-3/')).toBe(2);

    expect(await store.list('ws-3')).toEqual(['ws-30/c.txt']);
  });

  it('when a key is plainly wrong, then put refuses it', async () => {
    for (const key of ['', '/abs', 'a/../b', 'a\u0000b']) {
      await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
        /Invalid object key/,
      );
    }
  });

  it('when the bucket exists, then readiness passes; for a missing bucket or a dead endpoint it fails', async () => {
    await expect(store.readiness().check(new AbortController().signal)).resolves.toBeUndefined();

    const missing = createObjectStore(
      { ...TEST_MINIO, bucket: uniqueName('sk-missing', '-') },
      logger,
    );
    await expect(missing.readiness().check(new AbortController().signal)).rejects.toThrow(
      /does not exist/,
    );

    const dead = createObjectStore(
      { ...TEST_MINIO, endpoint: 'http://127.0.0.1:1', bucket },
      logger,
    );
    await expect(
      dead.readiness('minio', 500).check(new AbortController().signal),
    ).rejects.toThrow();
  });

  it('when MinIO cannot be reached, then every call fails with 503 STORAGE.UNAVAILABLE and Retry-After', async () => {
    const dead = createObjectStore(
      { ...TEST_MINIO, endpoint: 'http://127.0.0.1:1', bucket },
      logger,
    );
    const unavailable = expect.objectContaining({
      code: 'STORAGE.UNAVAILABLE',
      status: 503,
      message: 'File storage is unavailable, please try again in a few seconds.',
      headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) },
    });

    await expect(
      dead.put('ws-1/x.txt', Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toEqual(unavailable);
    await expect(dead.get('ws-1/x.txt')).rejects.toEqual(unavailable);
    await expect(dead.remove('ws-1/x.txt')).rejects.toEqual(unavailable);
    await expect(dead.list('ws-1/')).rejects.toEqual(unavailable);
  });
});
