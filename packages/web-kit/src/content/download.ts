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

/** GETs `url` and saves the body as `fileName`; throws on a network error or a non-OK answer. */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const res = await fetch(url, { credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText || 'Download failed'}`);
  saveBlob(await res.blob(), fileName);
}
