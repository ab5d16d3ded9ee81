import busboy from 'busboy';
import type { Request } from 'express';
import { MAX_CHAT_FILE_BYTES, MAX_CHAT_FILES, MAX_CHAT_TOTAL_BYTES } from '@aict/contracts';
import { AppError, cleanFileName } from '@aict/service-kit';
import { codeError } from '../provider/provider-errors';

export interface UploadedFile {
  bytes: Buffer;
  filename: string;
  /** What the client declared: informative only (the content decides). */
  declaredType: string;
  /** The file reached the per-file limit and was cut (its bytes are incomplete). */
  tooLarge: boolean;
}

export interface MultipartResult {
  files: UploadedFile[];
  fields: Record<string, string>;
  /** More files than `maxFiles` were sent. */
  tooMany: boolean;
  /** The files together exceeded `maxTotalBytes` (bytes after that point were dropped). */
  totalTooLarge: boolean;
}

export interface MultipartOptions {
  field: string;
  maxFiles: number;
  /** A file must be strictly smaller than this. */
  maxFileBytes: number;
  maxTotalBytes: number;
}

/** Beyond the files themselves, a request may carry this much (fields, part headers). */
const OVERHEAD_BYTES = 1024 * 1024;

const invalid = (message: string) => AppError.badRequest('VALIDATION.FAILED', message);

function withClose(err: AppError): AppError {
  return new AppError(err.code, err.status, err.message, {
    details: err.details,
    headers: { ...err.headers, connection: 'close' },
  });
}

/**
 * Reads a multipart request into memory, bounded: at most `maxFiles` files, each cut at
 * `maxFileBytes`, at most `maxTotalBytes` in all (and a request far beyond that is cut off at
 * once). Nothing is stored here: the caller checks every file before it writes anything.
 */
export function readMultipart(req: Request, options: MultipartOptions): Promise<MultipartResult> {
  const hardLimit = options.maxTotalBytes + OVERHEAD_BYTES;
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > hardLimit)
    return Promise.reject(withClose(codeError('FILE.TOTAL_TOO_LARGE')));

  return new Promise<MultipartResult>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // A raw UTF-8 `filename=` (what browsers send) is UTF-8, not latin1.
        defParamCharset: 'utf8',
        limits: {
          files: options.maxFiles,
          // busboy signals `limit` once a file reaches this size: one byte short of it is allowed.
          fileSize: options.maxFileBytes,
          fields: 100,
          fieldSize: 64 * 1024,
          parts: options.maxFiles + 101,
        },
      });
    } catch {
      reject(
        new AppError(
          'REQUEST.UNSUPPORTED_MEDIA_TYPE',
          415,
          'Send the files as multipart/form-data',
        ),
      );
      return;
    }
    const result: MultipartResult = { files: [], fields: {}, tooMany: false, totalTooLarge: false };
    let total = 0;
    let received = 0;
    let failed = false;

    parser.on('field', (name, value) => {
      result.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.field) {
        stream.resume();
        failed = true;
        reject(invalid(`Send the files in the field '${options.field}'`));
        return;
      }
      const file: UploadedFile = {
        bytes: Buffer.alloc(0),
        filename: cleanFileName(info.filename ?? ''),
        declaredType: info.mimeType ?? '',
        tooLarge: false,
      };
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > options.maxTotalBytes) result.totalTooLarge = true;
        if (!result.totalTooLarge && !file.tooLarge) chunks.push(chunk);
      });
      stream.on('limit', () => {
        file.tooLarge = true;
        chunks.length = 0;
      });
      stream.on('end', () => {
        file.bytes = Buffer.concat(chunks);
        result.files.push(file);
      });
    });
    parser.on('filesLimit', () => {
      result.tooMany = true;
    });
    parser.on('partsLimit', () => {
      result.tooMany = true;
    });
    parser.on('error', () => {
      req.unpipe(parser);
      if (!failed) reject(invalid('The upload is not valid multipart data'));
      failed = true;
    });
    parser.on('close', () => {
      if (!failed) resolve(result);
    });
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > hardLimit && !failed) {
        failed = true;
        req.unpipe(parser);
        reject(withClose(codeError('FILE.TOTAL_TOO_LARGE')));
      }
    });
    req.on('error', () => {
      if (!failed) reject(invalid('The upload was interrupted'));
      failed = true;
    });
    req.pipe(parser);
  });
}

export const CHAT_UPLOAD: MultipartOptions = {
  field: 'files',
  maxFiles: MAX_CHAT_FILES,
  maxFileBytes: MAX_CHAT_FILE_BYTES,
  maxTotalBytes: MAX_CHAT_TOTAL_BYTES,
};

/** generate-with-image: one reference image in `file`, the same per-file limit as the chat. */
export const REFERENCE_UPLOAD: MultipartOptions = {
  field: 'file',
  maxFiles: 1,
  maxFileBytes: MAX_CHAT_FILE_BYTES,
  maxTotalBytes: MAX_CHAT_FILE_BYTES,
};
