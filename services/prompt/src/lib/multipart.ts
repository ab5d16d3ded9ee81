import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, cleanFileName } from '@aict/service-kit';

export interface Upload {
  /** The one file of the request. */
  bytes: Buffer;
  filename: string;
  /** What the client declared; informative only (the content decides). */
  declaredType: string;
  /** The text fields (the last value of each name). */
  fields: Record<string, string>;
}

export interface ReadUploadOptions {
  /** The file's field name. */
  field: string;
  maxBytes: number;
  /** The error of a file larger than `maxBytes`. */
  tooLarge: () => AppError;
}

/** Requests larger than this beyond the file limit are cut off without being read. */
const OVERHEAD_BYTES = 64 * 1024;

const invalid = (message: string) => AppError.badRequest('VALIDATION.FAILED', message);

/**
 * Reads a multipart request holding one file (kept in memory: it is at most `maxBytes`) and a
 * few short text fields. Refuses a missing or second file (400), a file over `maxBytes`
 * (`tooLarge`), a body that is not multipart (415). The whole request is read before the
 * answer, unless it runs far past the limit (then the connection is closed).
 */
export function readUpload(req: Request, options: ReadUploadOptions): Promise<Upload> {
  const { field, maxBytes } = options;
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes + OVERHEAD_BYTES) {
    const err = options.tooLarge();
    return Promise.reject(
      new AppError(err.code, err.status, err.message, {
        details: err.details,
        headers: { connection: 'close' },
      }),
    );
  }

  return new Promise<Upload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // A raw UTF-8 `filename=` (what browsers send) is UTF-8, not latin1.
        defParamCharset: 'utf8',
        limits: { files: 1, fileSize: maxBytes, fields: 8, fieldSize: 1024, parts: 10 },
      });
    } catch {
      reject(
        new AppError(
          'REQUEST.UNSUPPORTED_MEDIA_TYPE',
          415,
          `Send the image as multipart/form-data in the field '${field}'`,
        ),
      );
      return;
    }

    const fields: Record<string, string> = {};
    let file: Omit<Upload, 'fields'> | undefined;
    let problem: AppError | undefined;
    let received = 0;
    const fail = (err: AppError) => {
      problem ??= err;
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== field || file) {
        fail(invalid(`Send exactly one file, in the field '${field}'`));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(options.tooLarge()));
      stream.on('end', () => {
        if (problem) return;
        file = {
          bytes: Buffer.concat(chunks),
          filename: cleanFileName(info.filename ?? ''),
          declaredType: info.mimeType ?? '',
        };
      });
    });
    parser.on('filesLimit', () => fail(invalid(`Send exactly one file, in the field '${field}'`)));
    parser.on('partsLimit', () => fail(invalid('Too many parts in the upload')));
    parser.on('fieldsLimit', () => fail(invalid('Too many fields in the upload')));
    parser.on('error', () => {
      req.unpipe(parser);
      reject(problem ?? invalid('The upload is not valid multipart data'));
    });
    parser.on('close', () => {
      if (problem) return reject(problem);
      if (!file || file.bytes.length === 0)
        return reject(invalid(`The field '${field}' needs an image file`));
      resolve({ ...file, fields });
    });

    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes + OVERHEAD_BYTES) {
        req.unpipe(parser);
        const err = options.tooLarge();
        reject(
          new AppError(err.code, err.status, err.message, {
            details: err.details,
            headers: { connection: 'close' },
          }),
        );
      }
    });
    req.on('error', () => reject(invalid('The upload was interrupted')));
    req.pipe(parser);
  });
}
