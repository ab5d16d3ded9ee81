import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, cleanFileName } from '@aict/service-kit';

export interface UploadedFile {
  field: string;
  filename: string;
  /** What the client declared; informative only (the content decides). */
  declaredType: string;
  bytes: Buffer;
}

export interface ReadFileOptions {
  field: string;
  maxBytes: number;
  /** The message of the 413 when the file is larger than `maxBytes`. */
  tooLargeMessage: string;
}

/** Requests larger than this beyond the file limit are cut off without reading them. */
const OVERHEAD_BYTES = 1024 * 1024;

/**
 * Reads the one file of a multipart request into memory (it is small: a logo), reading the
 * whole request before answering so the client always gets the answer. Refuses a missing
 * field (400), a second file (400) and a file over `maxBytes` (413 FILE.TOO_LARGE).
 */
export function readSingleFile(req: Request, options: ReadFileOptions): Promise<UploadedFile> {
  const { field, maxBytes, tooLargeMessage } = options;
  const tooLarge = () => new AppError('FILE.TOO_LARGE', 413, tooLargeMessage);
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes + OVERHEAD_BYTES) {
    return Promise.reject(
      new AppError('FILE.TOO_LARGE', 413, tooLargeMessage, { headers: { connection: 'close' } }),
    );
  }

  return new Promise<UploadedFile>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // A raw UTF-8 `filename=` (what browsers send) is UTF-8, not latin1.
        defParamCharset: 'utf8',
        limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 1024, parts: 12 },
      });
    } catch {
      reject(
        new AppError(
          'REQUEST.UNSUPPORTED_MEDIA_TYPE',
          415,
          `Send the file as multipart/form-data in the field '${field}'`,
        ),
      );
      return;
    }

    let file: UploadedFile | undefined;
    let problem: AppError | undefined;
    let received = 0;
    const fail = (err: AppError) => {
      problem ??= err;
    };

    parser.on('file', (name, stream, info) => {
      if (name !== field || file) {
        fail(
          AppError.badRequest('VALIDATION.FAILED', `Send exactly one file in the field '${field}'`),
        );
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge()));
      stream.on('end', () => {
        if (problem) return;
        file = {
          field: name,
          filename: cleanFileName(info.filename ?? ''),
          declaredType: info.mimeType ?? '',
          bytes: Buffer.concat(chunks),
        };
      });
    });
    parser.on('filesLimit', () =>
      fail(
        AppError.badRequest('VALIDATION.FAILED', `Send exactly one file in the field '${field}'`),
      ),
    );
    parser.on('partsLimit', () =>
      fail(AppError.badRequest('VALIDATION.FAILED', 'Too many parts in the upload')),
    );
    parser.on('error', () => {
      req.unpipe(parser);
      reject(
        problem ??
          AppError.badRequest('VALIDATION.FAILED', 'The upload is not valid multipart data'),
      );
    });
    parser.on('close', () => {
      if (problem) return reject(problem);
      if (!file || file.bytes.length === 0) {
        return reject(
          AppError.badRequest('VALIDATION.FAILED', `The field '${field}' needs a file`),
        );
      }
      resolve(file);
    });

    // A body that goes on far beyond the limit is not read to the end.
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes + OVERHEAD_BYTES) {
        req.unpipe(parser);
        reject(
          new AppError('FILE.TOO_LARGE', 413, tooLargeMessage, {
            headers: { connection: 'close' },
          }),
        );
      }
    });
    req.on('error', () =>
      reject(AppError.badRequest('VALIDATION.FAILED', 'The upload was interrupted')),
    );
    req.pipe(parser);
  });
}
