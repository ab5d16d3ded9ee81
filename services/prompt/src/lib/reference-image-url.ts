/** The gateway URL of a reference image (never a MinIO URL). */
export function referenceImageUrl(promptId: string, imageId: string): string {
  return `/api/prompts/${encodeURIComponent(promptId)}/reference-images/${encodeURIComponent(imageId)}`;
}

/** The prompt and image ids a reference image URL names (absolute or rooted), or null. */
export function parseReferenceImageUrl(url: string): { promptId: string; imageId: string } | null {
  let path: string;
  try {
    path = new URL(url, 'http://gateway.invalid').pathname;
  } catch {
    return null;
  }
  const match = /^\/api\/prompts\/([^/]+)\/reference-images\/([^/]+)$/.exec(path);
  if (!match) return null;
  try {
    return { promptId: decodeURIComponent(match[1]!), imageId: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}
