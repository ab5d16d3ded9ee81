import { Readable, Writable } from 'node:stream';
import { recordOf, type ContentRecord } from '../data/layout';
import type { WorkspaceExport } from '../domain/export-workspace';
import { buildContent, buildImage } from '../test-support/harness';
import { unzip } from '../test-support/unzip';
import { writeWorkspaceZip } from './workspace-export.presenter';

/** A sink that keeps what it was given; `hold` makes it stop taking bytes until released. */
function sink(options: { hold?: boolean } = {}) {
  const chunks: Buffer[] = [];
  let held: (() => void)[] = [];
  let holding = options.hold ?? false;
  const out = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      if (holding) held.push(() => callback());
      else callback();
    },
  });
  return {
    out,
    bytes: () => Buffer.concat(chunks),
    release() {
      holding = false;
      const waiting = held;
      held = [];
      for (const go of waiting) go();
    },
  };
}

const IMAGE = Buffer.from('89504e470d0a1a0a00000000', 'hex');

function jobOf(pages: ContentRecord[][], options: { failOnPage?: number } = {}) {
  const pulled: number[] = [];
  const job: WorkspaceExport = {
    workspaceId: 1,
    total: pages.flat().length,
    async *pages() {
      for (const [n, page] of pages.entries()) {
        pulled.push(n);
        if (options.failOnPage === n) throw new Error('the database went away');
        yield page;
      }
    },
    openImage: () => Promise.resolve({ stream: Readable.from([IMAGE]), contentType: 'image/png' }),
  };
  return { job, pulled };
}

const texts = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    recordOf(buildContent({ title: `Text ${i}`, content: `Body ${i} `.repeat(200) })),
  );

describe('the workspace zip', () => {
  it('when every page is written, then the archive opens with each content and the manifest last', async () => {
    const [a, b] = texts(2);
    const image = recordOf(buildImage());
    const { job } = jobOf([[a!, image], [b!]]);
    const s = sink();

    const manifest = await writeWorkspaceZip(job, s.out, new Date('2026-01-02T03:04:05Z'));

    const files = await unzip(s.bytes());
    expect([...files.keys()]).toEqual([
      `contents/${a!._id}.json`,
      `contents/${a!._id}.md`,
      `images/${image._id}.png`,
      `images/${image._id}.json`,
      `contents/${b!._id}.json`,
      `contents/${b!._id}.md`,
      'manifest.json',
    ]);
    expect(files.get(`images/${image._id}.png`)).toEqual(IMAGE);
    expect(JSON.parse(files.get('manifest.json')!.toString())).toEqual({
      workspaceId: 1,
      exportedAt: '2026-01-02T03:04:05.000Z',
      texts: 2,
      images: 1,
      imagesMissing: 0,
    });
    expect(manifest.texts).toBe(2);
  });

  it('when reading fails half-way, then the output is destroyed and what was sent does not open as a zip', async () => {
    const { job } = jobOf([texts(3), texts(3)], { failOnPage: 1 });
    const s = sink();

    await expect(writeWorkspaceZip(job, s.out)).rejects.toThrow('the database went away');

    expect(s.out.destroyed).toBe(true);
    expect(s.bytes().length).toBeGreaterThan(0);
    await expect(unzip(s.bytes())).rejects.toThrow(/central directory/i);
  });

  it('when the client stops reading, then no further page is read until it reads again', async () => {
    const { job, pulled } = jobOf([texts(5), texts(5), texts(5)]);
    const s = sink({ hold: true });

    const done = writeWorkspaceZip(job, s.out);
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(pulled).toEqual([0]);
    s.release();
    await done;
    expect(pulled).toEqual([0, 1, 2]);
    expect((await unzip(s.bytes())).size).toBe(31);
  });
});
