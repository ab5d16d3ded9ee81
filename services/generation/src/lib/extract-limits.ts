/**
 * The bounds on reading an attached document, in one place. A document is read in a child
 * process (see extract-text.ts) so that no upload can grow the service itself.
 */
export const EXTRACT_LIMITS = {
  /** A DOCX may expand to at most this much when unpacked (declared sizes, then actual bytes). */
  maxUnpackedBytes: 50 * 1024 * 1024,
  /** A PDF may have at most this many pages. */
  maxPdfPages: 1_000,
  /** At most this many documents are read at once; the others wait their turn. */
  maxConcurrent: 2,
  /** How often the reading process's memory (RSS) is looked at. */
  memoryPollMs: 20,
} as const;

/** Which limit a document reached: each has a sentence the user sees. */
export type ExtractLimit = 'unpacked' | 'pages' | 'memory' | 'time';

export function limitSentence(
  limit: ExtractLimit,
  values: { maxMemoryMb: number; timeoutMs: number },
) {
  switch (limit) {
    case 'unpacked':
      return `The file expands to more than ${EXTRACT_LIMITS.maxUnpackedBytes / 1024 / 1024} MB when unpacked.`;
    case 'pages':
      return `The file has more than ${EXTRACT_LIMITS.maxPdfPages} pages.`;
    case 'memory':
      return `Reading the file needs more than ${values.maxMemoryMb} MB of memory.`;
    case 'time':
      return `Reading the file takes longer than ${Number((values.timeoutMs / 1000).toFixed(1))} seconds.`;
  }
}
