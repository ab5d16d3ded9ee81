import { once } from 'node:events';
import { Readable, type PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ContentItem, WorkspaceExportManifest } from '@aict/contracts';
import { ZipFile } from 'yazl';
import type { ContentRecord } from '../data/layout';
import type { WorkspaceExport } from '../domain/export-workspace';
import { presentRecord } from './content.presenter';

// The workspace export as a zip (issue 18), written to `out` as it is built (yazl streams
// its entries). Backpressure: an image is read from MinIO only when the archive has taken
// the previous one, and the next page of records is read only when the archive has taken
// this page's entries and `out` has drained. A failure destroys `out`: no end of archive.

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export const imageExtensionOf = (contentType: string) =>
  IMAGE_EXTENSIONS[contentType.split(';')[0]!.trim().toLowerCase()] ?? 'bin';

/** One text content as Markdown: the title, its facts, the filled inputs and the text. */
export function textMarkdown(item: ContentItem): string {
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  const parts = [`# ${oneLine(item.title) || 'Untitled'}`, ''];
  parts.push(`- Model: ${item.model}`, `- Created: ${item.createdAt}`, `- Author: ${item.userId}`);
  parts.push(`- Review: ${item.review?.state ?? 'draft'}`);
  if (item.voiceFlags?.length) parts.push(`- Words to avoid: ${item.voiceFlags.join(', ')}`);
  const inputs = Object.entries(item.metadata.inputs ?? {}).filter(([, v]) => v.trim() !== '');
  if (inputs.length > 0) {
    parts.push('', '## Inputs', '');
    for (const [name, value] of inputs) parts.push(`- ${name}: ${oneLine(value)}`);
  }
  parts.push('', '## Text', '', item.content.trim());
  return `${parts.join('\n').trimEnd()}\n`;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Writes the archive; resolves once `out` has all of it. On any failure (a read, MinIO,
 * `out` closed by the client) it destroys `out` and rejects.
 */
export async function writeWorkspaceZip(
  job: WorkspaceExport,
  out: Writable,
  now = new Date(),
): Promise<WorkspaceExportManifest> {
  const zip = new ZipFile();
  const output = zip.outputStream as unknown as PassThrough;
  let fail!: (err: unknown) => void;
  const failure = new Promise<never>((_, reject) => (fail = reject));
  failure.catch(() => undefined);
  const piped = pipeline(output, out);
  piped.catch(fail);
  zip.on('error', fail);
  const settle = <T>(p: Promise<T>) => Promise.race([p, failure]);

  let last: Promise<void> = Promise.resolve();
  const add = (name: string, stream: Readable, mtime: Date, compress = true) => {
    const taken = new Promise<void>((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('error', reject);
    });
    taken.catch(() => undefined);
    zip.addReadStream(stream, name, { mtime, compress });
    last = taken;
    return taken;
  };
  const addBytes = (name: string, bytes: Buffer, mtime: Date) =>
    add(name, Readable.from([bytes], { objectMode: false }), mtime);

  const manifest: WorkspaceExportManifest = {
    workspaceId: job.workspaceId,
    exportedAt: now.toISOString(),
    texts: 0,
    images: 0,
    imagesMissing: 0,
  };
  const addContent = async (record: ContentRecord) => {
    const item = presentRecord(record);
    if (record.contentType === 'text') {
      void addBytes(`contents/${item.id}.json`, json(item), record.createdAt);
      void addBytes(`contents/${item.id}.md`, Buffer.from(textMarkdown(item)), record.createdAt);
      manifest.texts++;
      return;
    }
    const image = await settle(job.openImage(record));
    if (image) {
      const name = `images/${item.id}.${imageExtensionOf(image.contentType)}`;
      await settle(add(name, image.stream, record.createdAt, false));
    } else manifest.imagesMissing++;
    void addBytes(`images/${item.id}.json`, json(item), record.createdAt);
    manifest.images++;
  };

  try {
    for await (const records of job.pages()) {
      for (const record of records) await addContent(record);
      await settle(last);
      if (output.writableNeedDrain) await settle(once(output, 'drain'));
      if (out.writableNeedDrain) await settle(once(out, 'drain'));
    }
    zip.addBuffer(json(manifest), 'manifest.json', { mtime: now });
    zip.end();
    await settle(piped);
    return manifest;
  } catch (err) {
    output.destroy();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}
