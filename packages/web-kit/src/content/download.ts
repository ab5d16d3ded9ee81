// Saving a file the browser already may read (SPEC §7 "Image download: a plain GET of the
// image URL, then a local save"). Works for our URLs (cookies sent) and data: URLs.

/** Saves `blob` as `fileName` through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke after the click was handled (some browsers read the URL asynchronously).
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The first `count` bytes of `blob` (FileReader: also where Blob#arrayBuffer is missing). */
function firstBytes(blob: Blob, count: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(blob.slice(0, count));
  });
}

/** The image type from the first bytes (when the server sent no usable Content-Type). */
async function sniffImageType(blob: Blob): Promise<string | undefined> {
  const head = await firstBytes(blob, 12);
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 3) === 'GIF') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * `fileName` with its extension set to the blob's real image type (a PNG saved as "x.jpg"
 * becomes "x.png"); unchanged when the type is not a known image type.
 */
export async function fileNameForType(blob: Blob, fileName: string): Promise<string> {
  const declared = blob.type.split(';')[0]!.trim().toLowerCase();
  const type = declared in IMAGE_EXTENSIONS ? declared : await sniffImageType(blob);
  const extension = type ? IMAGE_EXTENSIONS[type] : undefined;
  if (!extension) return fileName;
  const dot = fileName.lastIndexOf('.');
  return `${dot > 0 ? fileName.slice(0, dot) : fileName}.${extension}`;
}

/**
 * GETs `url` and saves the body as `fileName`, its extension following the real image type;
 * throws on a network error or a non-OK answer.
 */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const res = await fetch(url, { credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText || 'Download failed'}`);
  const blob = await res.blob();
  saveBlob(blob, await fileNameForType(blob, fileName));
}
