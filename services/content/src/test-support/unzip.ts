// The repository's zip reader (the generation service reads uploaded .docx files with it).
interface ZipEntry {
  fileName: string;
}
interface ZipFile {
  readEntry(): void;
  on(event: 'entry', listener: (entry: ZipEntry) => void): void;
  on(event: 'end', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  openReadStream(
    entry: ZipEntry,
    cb: (err: Error | null, stream: NodeJS.ReadableStream) => void,
  ): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yauzl = require('yauzl') as {
  fromBuffer(
    buffer: Buffer,
    options: { lazyEntries: boolean },
    cb: (err: Error | null, zip: ZipFile) => void,
  ): void;
};

/** Every entry of a zip archive, by name, in the archive's order. */
export function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (openErr, stream) => {
          if (openErr) return reject(openErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
