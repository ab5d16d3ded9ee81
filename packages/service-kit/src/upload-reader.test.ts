import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from './errors';
import { checkFiles } from './file-check';
import { readUpload, type CheckedUpload, type ReadUploadOptions } from './upload-reader';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const BOUNDARY = 'test-boundary-7d1';

interface Part {
  name: string;
  value: Buffer | string;
  filename?: string;
  type?: string;
}

function multipart(parts: Part[], { close = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename
      ? `\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`
      : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const file = (bytes: Buffer | string, filename = 'a.png'): Part => ({
  name: 'files',
  value: bytes,
  filename,
  type: 'image/png',
});

interface Outcome {
  status: number;
  headers: IncomingMessage['headers'];
  body: { code?: string; message?: string; files?: { filename: string; size: number }[] } & Record<
    string,
    unknown
  >;
}

describe('readUpload', () => {
  let server: Server;
  let base: URL;
  let options: ReadUploadOptions;
  /** What the reader settled with on the server, for clients that never see the answer. */
  let settled: Promise<CheckedUpload | AppError>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const reading = readUpload(req, options);
      settled = reading.catch((err: AppError) => err);
      reading.then(
        (upload) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              fields: upload.fields,
              types: upload.types,
              files: upload.files.map((f) => ({ filename: f.filename, size: f.bytes.length })),
            }),
          );
        },
        (err: AppError) => {
          res.writeHead(err.status, { 'content-type': 'application/json', ...err.headers });
          res.end(JSON.stringify({ code: err.code, message: err.message }));
        },
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    options = { field: 'files', maxFiles: 2, maxFileBytes: 100, maxTotalBytes: 150 };
  });

  function send(
    body: Buffer,
    headers: Record<string, string> = {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
  ): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const req = request(base, { method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Outcome['body'],
          }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('when files and fields are within the limits, then they are read with clean names', async () => {
    const res = await send(
      multipart([
        { name: 'index', value: '2' },
        file(Buffer.alloc(99, 1), 'evil\u202Etxt.exe'),
        file(Buffer.alloc(50, 2), 'b.png'),
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body.fields).toEqual({ index: '2' });
    expect(res.body.files).toEqual([
      { filename: 'eviltxt.exe', size: 99 },
      { filename: 'b.png', size: 50 },
    ]);
  });

  it('when a file reaches the limit, then 413 FILE.TOO_LARGE', async () => {
    const res = await send(multipart([file(Buffer.alloc(100))]));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('FILE.TOO_LARGE');
  });

  it('when more files than allowed are sent, then 400 names the field and the count', async () => {
    const res = await send(multipart([file('a'), file('b'), file('c')]));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Send at most 2 files in the field 'files'");
  });

  it('when the files together pass the total, then the total error answers', async () => {
    options.errors = {
      totalTooLarge: () => new AppError('FILE.TOTAL_TOO_LARGE', 413, 'Too much in all.'),
    };
    const res = await send(multipart([file(Buffer.alloc(90)), file(Buffer.alloc(90))]));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('FILE.TOTAL_TOO_LARGE');
  });

  it('when a file is of a type not allowed, then FILE.INVALID_TYPE comes before the size and count (SPEC §5 order)', async () => {
    options.accept = (files) => checkFiles(files, { allowed: ['image/png'] });
    const ok = await send(multipart([file(PNG)]));
    expect(ok.status).toBe(200);
    expect(ok.body.types).toEqual(['image/png']);

    const res = await send(
      multipart([file('GIF89a\x01\x00\x01\x00'), file(Buffer.alloc(101)), file(PNG)]),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('FILE.INVALID_TYPE');
  });

  it('when there is no file, or a file in another field, then 400 names the field', async () => {
    const none = await send(multipart([{ name: 'index', value: '1' }]));
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("The field 'files' needs a file");

    const elsewhere = await send(multipart([{ ...file(PNG), name: 'other' }]));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toBe("Send the files in the field 'files'");
  });

  it('when text fields are too many or too long, then 400', async () => {
    options.maxFields = 2;
    options.maxFieldBytes = 8;
    const many = await send(
      multipart([...[1, 2, 3].map((n): Part => ({ name: `f${n}`, value: 'x' })), file(PNG)]),
    );
    expect(many.status).toBe(400);
    expect(many.body.message).toBe('Too many fields in the upload');

    const long = await send(multipart([{ name: 'note', value: 'x'.repeat(9) }, file(PNG)]));
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("The field 'note' is too long");
  });

  it('when the body is not multipart, then 415', async () => {
    const res = await send(Buffer.from('{}'), { 'content-type': 'application/json' });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('REQUEST.UNSUPPORTED_MEDIA_TYPE');
  });

  it('when the body ends before its closing boundary, then 400 not valid multipart', async () => {
    const res = await send(multipart([file(PNG)], { close: false }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The upload is not valid multipart data');
  });

  it('when a request declares far more than the limit, then 413 at once and the connection closes', async () => {
    const body = multipart([file(Buffer.alloc(100))]);
    const res = await send(body, {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(2 * 1024 * 1024),
    }).catch(() => null);
    // The server answers before the body arrives; the client may see the answer or a reset.
    if (res) {
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
    }
    await expect(settled).resolves.toMatchObject({ status: 413, code: 'FILE.TOO_LARGE' });
  });

  it('when a client sends slowly, then the upload is read once it ends', async () => {
    const body = multipart([file(PNG)]);
    const res = await new Promise<number>((resolve, reject) => {
      const req = request(
        base,
        {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        },
        (r) => {
          r.resume();
          resolve(r.statusCode!);
        },
      );
      req.on('error', reject);
      let at = 0;
      const step = () => {
        if (at >= body.length) return void req.end();
        req.write(body.subarray(at, at + 16));
        at += 16;
        setTimeout(step, 5);
      };
      step();
    });
    expect(res).toBe(200);
  });

  it('when a client leaves half-way, then the read ends with 400 and the server goes on', async () => {
    const body = multipart([file(Buffer.alloc(90))]);
    await new Promise<void>((resolve) => {
      const req = request(base, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(body.length),
        },
      });
      req.on('error', () => resolve());
      req.write(body.subarray(0, 60), () => setTimeout(() => req.destroy(), 50));
    });
    await expect(settled).resolves.toMatchObject({ status: 400, code: 'VALIDATION.FAILED' });

    const after = await send(multipart([file(PNG)]));
    expect(after.status).toBe(200);
  });
});
