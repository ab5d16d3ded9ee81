import type { AttachmentKind } from './file-checks';
import { runInWorker, WorkerLimitError } from './worker';

export interface ExtractLimits {
  timeoutMs: number;
  maxChars: number;
  maxMemoryMb: number;
}

export class UnreadableFileError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableFileError';
  }
}

const EXTRACT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const load = require('node:module').createRequire(workerData.base);
async function read() {
  const bytes = Buffer.from(workerData.bytes);
  if (workerData.kind === 'pdf') {
    const { extractText, getDocumentProxy } = load('unpdf');
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    return (await extractText(pdf, { mergePages: true })).text;
  }
  if (workerData.kind === 'docx') {
    return (await load('mammoth').extractRawText({ buffer: bytes })).value;
  }
  const WordExtractor = load('word-extractor');
  return (await new WordExtractor().extract(bytes)).getBody();
}
read().then(
  (text) => parentPort.postMessage({ ok: true, value: String(text).slice(0, workerData.maxChars) }),
  (err) => parentPort.postMessage({ ok: false, reason: String(err && err.message || err) }),
);
`;

/** The text of a document, read in a worker within the limits; UnreadableFileError otherwise. */
export async function extractText(
  bytes: Buffer,
  kind: Exclude<AttachmentKind, 'image'>,
  limits: ExtractLimits,
): Promise<string> {
  if (kind === 'text') return new TextDecoder('utf-8').decode(bytes).slice(0, limits.maxChars);
  try {
    return await runInWorker<string>(
      EXTRACT_SOURCE,
      { bytes: new Uint8Array(bytes), kind, maxChars: limits.maxChars },
      limits,
    );
  } catch (err) {
    if (err instanceof WorkerLimitError) throw new UnreadableFileError(err.message);
    throw err;
  }
}
