import { apiRequest, dispositionFileName, saveBlob } from '@aict/web-kit';

// GET /api/workspaces/:id/export (issue 18): the workspace's contents as one zip, read as a
// stream so the page can show progress, then saved as a file. The server sends the number
// of contents in X-Export-Items; every content has exactly one JSON entry in the archive
// (`contents/<id>.json` or `images/<id>.json`), so counting those entries' local headers
// as the bytes arrive gives the contents done.

/** The contracts' WORKSPACE_EXPORT_ITEMS_HEADER. */
export const EXPORT_ITEMS_HEADER = 'x-export-items';

export interface ExportProgress {
  /** Contents received so far. */
  done: number;
  /** Contents the workspace held when the export started (null when not sent). */
  total: number | null;
  bytes: number;
}

const SIGNATURE = [0x50, 0x4b, 0x03, 0x04]; // a zip entry's local file header
const HEADER_BYTES = 30;
const ITEM_ENTRY = /^(contents|images)\/[A-Za-z0-9_-]{1,64}\.json$/;

/** Counts the archive's content entries in a byte stream given chunk by chunk. */
export class ZipItemCounter {
  count = 0;
  private tail = new Uint8Array(0);

  push(chunk: Uint8Array): number {
    const buf = new Uint8Array(this.tail.length + chunk.length);
    buf.set(this.tail);
    buf.set(chunk, this.tail.length);
    let i = 0;
    for (; i + SIGNATURE.length <= buf.length; i++) {
      if (SIGNATURE.some((byte, k) => buf[i + k] !== byte)) continue;
      if (i + HEADER_BYTES > buf.length) break; // the header is not all here yet
      const nameLength = buf[i + 26]! | (buf[i + 27]! << 8);
      if (i + HEADER_BYTES + nameLength > buf.length) break;
      // The names looked for are ASCII (content ids).
      const name = String.fromCharCode(
        ...buf.subarray(i + HEADER_BYTES, i + HEADER_BYTES + Math.min(nameLength, 128)),
      );
      if (ITEM_ENTRY.test(name)) this.count++;
      i += HEADER_BYTES + nameLength - 1;
    }
    // Keep what was not looked at yet (a header cut by the chunk's end, the last bytes).
    this.tail = buf.slice(Math.min(i, buf.length));
    return this.count;
  }
}

/** The export's URL. */
export const workspaceExportUrl = (workspaceId: number) =>
  `/api/workspaces/${encodeURIComponent(String(workspaceId))}/export`;

/**
 * Downloads the workspace export, reporting progress, and saves it. Throws when the answer
 * is an error or the stream breaks (the server cuts it when the export fails): nothing is
 * saved then.
 */
export async function downloadWorkspaceExport(
  workspaceId: number,
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const res = await apiRequest('GET', workspaceExportUrl(workspaceId), undefined, { signal });
  const header = Number(res.headers.get(EXPORT_ITEMS_HEADER));
  const total = res.headers.has(EXPORT_ITEMS_HEADER) && Number.isFinite(header) ? header : null;
  const fileName =
    dispositionFileName(res.headers.get('content-disposition')) ??
    `workspace-${workspaceId}-export.zip`;
  const chunks: Uint8Array[] = [];
  const counter = new ZipItemCounter();
  let bytes = 0;
  onProgress({ done: 0, total, bytes });
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.length;
      onProgress({ done: counter.push(value), total, bytes });
    }
  } else {
    const whole = new Uint8Array(await res.arrayBuffer());
    chunks.push(whole);
    bytes = whole.length;
    onProgress({ done: counter.push(whole), total, bytes });
  }
  saveBlob(new Blob(chunks as BlobPart[], { type: 'application/zip' }), fileName);
}
