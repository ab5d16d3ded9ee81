import { EXTRACT_LIMITS, limitSentence, type ExtractLimit } from './extract-limits';
import type { AttachmentKind } from './file-checks';
import { ChildLimitError, concurrencyGate, runInChildProcess, WorkerLimitError } from './worker';

export interface ExtractLimits {
  timeoutMs: number;
  maxChars: number;
  maxMemoryMb: number;
}

export class UnreadableFileError extends Error {
  constructor(
    reason: string,
    /** The limit the file reached, as a sentence for the user; undefined: it is broken. */
    readonly limitMessage?: string,
  ) {
    super(reason);
    this.name = 'UnreadableFileError';
  }
}

// Plain Node CommonJS, run as `node -e` (see runInChildProcess): it works the same from dist/
// and under jest. Packages load from this service with createRequire (unpdf is ESM-only and
// loads with require() in plain Node). Answers { ok, value } | { ok: false, limit | reason }.
const EXTRACT_SOURCE = `
const args = JSON.parse(process.argv[1]);
const load = require('node:module').createRequire(args.base);
class Limit extends Error { constructor(limit) { super(limit); this.limit = limit; } }

function openZip(bytes) {
  return new Promise((resolve, reject) => load('yauzl').fromBuffer(
    bytes, { lazyEntries: true, validateEntrySizes: false },
    (err, zip) => (err ? reject(err) : resolve(zip))));
}
function listEntries(zip) {
  return new Promise((resolve, reject) => {
    const entries = [];
    zip.on('entry', (entry) => { entries.push(entry); zip.readEntry(); });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}
function inflateCounting(zip, entry, budget) {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => {
    if (err) return reject(err);
    let bytes = 0;
    stream.on('data', (chunk) => {
      bytes += chunk.length;
      if (bytes > budget) { stream.destroy(); reject(new Limit('unpacked')); }
    });
    stream.on('end', () => resolve(bytes));
    stream.on('error', reject);
  }));
}
// The zip directory first (declared sizes), then every entry inflated with a byte budget:
// declared sizes can lie, so the budget counts what really comes out. Only a
// zip that passes reaches mammoth, whose own unpacking is then bounded by the same total.
async function checkZip(bytes) {
  const zip = await openZip(bytes);
  const entries = await listEntries(zip);
  const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (declared > args.maxUnpackedBytes) throw new Limit('unpacked');
  let left = args.maxUnpackedBytes;
  for (const entry of entries) {
    if (entry.fileName.endsWith('/')) continue;
    left -= await inflateCounting(zip, entry, left);
  }
  zip.close();
}
async function readPdf(bytes) {
  const { getDocumentProxy } = load('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  if (pdf.numPages > args.maxPdfPages) throw new Limit('pages');
  const pages = [];
  let length = 0;
  for (let number = 1; number <= pdf.numPages && length < args.maxChars; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.filter((item) => item.str != null)
      .map((item) => item.str + (item.hasEOL ? '\\n' : '')).join('');
    page.cleanup();
    pages.push(text);
    length += text.length + 1;
  }
  return pages.join('\\n').replace(/[^\\S\\n]+/g, ' ').replace(/ ?\\n ?/g, '\\n').replace(/\\n{3,}/g, '\\n\\n');
}
async function read(bytes) {
  if (args.kind === 'pdf') return readPdf(bytes);
  if (args.kind === 'docx') {
    await checkZip(bytes);
    return (await load('mammoth').extractRawText({ buffer: bytes })).value;
  }
  const WordExtractor = load('word-extractor');
  return (await new WordExtractor().extract(bytes)).getBody();
}
async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  try {
    const text = await read(Buffer.concat(chunks));
    return { ok: true, value: String(text).slice(0, args.maxChars) };
  } catch (err) {
    if (err instanceof Limit) return { ok: false, limit: err.limit };
    return { ok: false, reason: String((err && err.message) || err).slice(0, 300) };
  }
}
main().then((answer) => process.stdout.write(JSON.stringify(answer)));
`;

type ChildAnswer =
  { ok: true; value: string } | { ok: false; limit?: ExtractLimit; reason?: string };

const gate = concurrencyGate(EXTRACT_LIMITS.maxConcurrent);

/** Plain text: only as many bytes as can make `maxChars` characters are decoded. */
function readText(bytes: Buffer, maxChars: number): string {
  const head = bytes.subarray(0, maxChars * 4);
  return new TextDecoder('utf-8').decode(head).slice(0, maxChars);
}

/**
 * The text of a document, read in a child process within the limits of EXTRACT_LIMITS and
 * the configuration (time, memory, characters); UnreadableFileError otherwise, carrying the
 * limit the file reached.
 */
export async function extractText(
  bytes: Buffer,
  kind: Exclude<AttachmentKind, 'image'>,
  limits: ExtractLimits,
): Promise<string> {
  if (kind === 'text') return readText(bytes, limits.maxChars);
  const refuse = (limit: ExtractLimit) =>
    new UnreadableFileError(`limit: ${limit}`, limitSentence(limit, limits));
  let answer: ChildAnswer;
  try {
    answer = await gate(() =>
      runInChildProcess<ChildAnswer>(
        EXTRACT_SOURCE,
        {
          kind,
          maxChars: limits.maxChars,
          maxUnpackedBytes: EXTRACT_LIMITS.maxUnpackedBytes,
          maxPdfPages: EXTRACT_LIMITS.maxPdfPages,
        },
        bytes,
        {
          timeoutMs: limits.timeoutMs,
          maxMemoryMb: limits.maxMemoryMb,
          pollMs: EXTRACT_LIMITS.memoryPollMs,
          // JSON of maxChars characters: at most 6 bytes each (\\uXXXX), plus the wrapper.
          maxOutputBytes: limits.maxChars * 6 + 1024,
        },
      ),
    );
  } catch (err) {
    if (err instanceof ChildLimitError) throw refuse(err.limit);
    if (err instanceof WorkerLimitError) throw new UnreadableFileError(err.message);
    throw err;
  }
  if (answer.ok) return answer.value;
  if (answer.limit) throw refuse(answer.limit);
  throw new UnreadableFileError(answer.reason ?? 'failed');
}
