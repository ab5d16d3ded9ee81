import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { AppError } from './errors';
import { cleanFileName } from './uploads';

// The one multipart reader of the services: files are kept in memory (they are bounded), the
// whole request is read before the answer (so the client always gets it) unless it runs far
// past the limit, and nothing is stored here: the caller checks, then writes.

export interface UploadedFile {
  filename: string;
  /** What the client declared; informative only (the bytes decide). */
  declaredType: string;
  bytes: Buffer;
}

export interface Upload {
  files: UploadedFile[];
  /** The text fields (the last value of each name). */
  fields: Record<string, string>;
}

export interface CheckedUpload extends Upload {
  /** What `accept` said of each file (all null without `accept`). */
  types: (string | null)[];
}

export interface UploadErrors {
  /** A file of `maxFileBytes` or more. Default: 413 FILE.TOO_LARGE. */
  tooLarge: () => AppError;
  /** More files than `maxFiles`. Default: 400 "Send at most N file(s) in the field '…'". */
  tooMany: () => AppError;
  /** The files together over `maxTotalBytes`. Default: `tooLarge`. */
  totalTooLarge: () => AppError;
  /** A file whose type is not allowed (`accept`). Default: 400 FILE.INVALID_TYPE. */
  invalidType: () => AppError;
  /** A file in another field. Default: `tooMany`'s answer when `maxFiles` is 1. */
  wrongField: () => AppError;
  /** No file, or only empty ones. Default: 400 "The field '…' needs a file". */
  missing: () => AppError;
  /** A body that is not multipart/form-data. Default: 415. */
  notMultipart: () => AppError;
}

export interface ReadUploadOptions {
  /** The files' field name. */
  field: string;
  /** Default 1. */
  maxFiles?: number;
  /** A file must be smaller than this (busboy cuts one that reaches it). */
  maxFileBytes: number;
  /** All files together; default `maxFiles × maxFileBytes`. */
  maxTotalBytes?: number;
  /** Text fields: how many (default 10) and how long each (bytes, default 1024). */
  maxFields?: number;
  maxFieldBytes?: number;
  /**
   * Beyond the files, what a request may carry (fields, part headers; default 1 MB). A
   * request longer than the files' total and this is cut off at once (its connection closed).
   */
  overheadBytes?: number;
  /**
   * Decides whether each complete file is of an allowed type (e.g. with checkFiles); asked
   * before the limits are answered, since SPEC §5 refuses in the order type, size, count,
   * total. Its answer (one per file, null: not allowed) comes back in `Upload.types`.
   */
  accept?: (files: UploadedFile[]) => Promise<(string | null)[]>;
  errors?: Partial<UploadErrors>;
}

const invalid = (message: string) => AppError.badRequest('VALIDATION.FAILED', message);

function withClose(err: AppError): AppError {
  return new AppError(err.code, err.status, err.message, {
    details: err.details,
    headers: { ...err.headers, connection: 'close' },
  });
}

function errorsOf(options: ReadUploadOptions, maxFiles: number): UploadErrors {
  const { field } = options;
  const given = options.errors ?? {};
  const tooLarge =
    given.tooLarge ??
    (() =>
      new AppError(
        'FILE.TOO_LARGE',
        413,
        `A file must be smaller than ${Math.round((options.maxFileBytes / 1024 / 1024) * 100) / 100} MB.`,
      ));
  const tooMany =
    given.tooMany ??
    (() =>
      invalid(
        maxFiles === 1
          ? `Send exactly one file in the field '${field}'`
          : `Send at most ${maxFiles} files in the field '${field}'`,
      ));
  return {
    tooLarge,
    tooMany,
    totalTooLarge: given.totalTooLarge ?? tooLarge,
    invalidType:
      given.invalidType ??
      (() => new AppError('FILE.INVALID_TYPE', 400, 'This type of file is not allowed.')),
    wrongField:
      given.wrongField ??
      (maxFiles === 1 ? tooMany : () => invalid(`Send the files in the field '${field}'`)),
    missing: given.missing ?? (() => invalid(`The field '${field}' needs a file`)),
    notMultipart:
      given.notMultipart ??
      (() =>
        new AppError(
          'REQUEST.UNSUPPORTED_MEDIA_TYPE',
          415,
          `Send the file as multipart/form-data in the field '${field}'`,
        )),
  };
}

interface Parsed extends Upload {
  /** Files that reached `maxFileBytes` (their bytes were dropped). */
  tooLarge: number;
  tooMany: boolean;
  totalTooLarge: boolean;
  wrongField: boolean;
  problem?: AppError;
}

/**
 * Reads a multipart request, bounded: at most `maxFiles` files in `field`, each smaller than
 * `maxFileBytes`, `maxTotalBytes` in all, and a few short text fields. Answers (rejects with)
 * 415 for a body that is not multipart, 400 for broken or interrupted multipart, too many
 * files or fields, a file in another field or none, and the configured errors for the type
 * (`accept`), size and total, in SPEC §5's order: type, size, count, total.
 */
export async function readUpload(
  req: IncomingMessage,
  options: ReadUploadOptions,
): Promise<CheckedUpload> {
  const maxFiles = options.maxFiles ?? 1;
  const errors = errorsOf(options, maxFiles);
  const parsed = await parse(req, options, maxFiles, errors);
  if (parsed.wrongField) throw errors.wrongField();
  if (parsed.problem) throw parsed.problem;
  const complete = parsed.totalTooLarge ? [] : parsed.files;
  const types = options.accept ? await options.accept(complete) : complete.map(() => null);
  if (options.accept && types.some((type) => type === null)) throw errors.invalidType();
  if (parsed.tooLarge > 0) throw errors.tooLarge();
  if (parsed.tooMany) throw errors.tooMany();
  if (parsed.totalTooLarge) throw errors.totalTooLarge();
  if (!complete.some((file) => file.bytes.length > 0)) throw errors.missing();
  return { files: complete, fields: parsed.fields, types };
}

export type SingleUpload = UploadedFile & { fields: Record<string, string> };

/** readUpload of exactly one file (`maxFiles` 1): the file, with the text fields. */
export async function readOneFile(
  req: IncomingMessage,
  options: Omit<ReadUploadOptions, 'maxFiles' | 'accept'>,
): Promise<SingleUpload> {
  const { files, fields } = await readUpload(req, { ...options, maxFiles: 1 });
  return { ...files[0]!, fields };
}

function parse(
  req: IncomingMessage,
  options: ReadUploadOptions,
  maxFiles: number,
  errors: UploadErrors,
): Promise<Parsed> {
  const maxTotalBytes = options.maxTotalBytes ?? maxFiles * options.maxFileBytes;
  const maxFields = options.maxFields ?? 10;
  const hardLimit = maxTotalBytes + (options.overheadBytes ?? 1024 * 1024);
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > hardLimit)
    return Promise.reject(withClose(errors.totalTooLarge()));

  return new Promise<Parsed>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // A raw UTF-8 `filename=` (what browsers send) is UTF-8, not latin1.
        defParamCharset: 'utf8',
        limits: {
          files: maxFiles,
          // busboy signals `limit` once a file reaches this size: one byte short is allowed.
          fileSize: options.maxFileBytes,
          fields: maxFields,
          fieldSize: options.maxFieldBytes ?? 1024,
          parts: maxFiles + maxFields + 1,
        },
      });
    } catch {
      reject(errors.notMultipart());
      return;
    }
    const result: Parsed = {
      files: [],
      fields: {},
      tooLarge: 0,
      tooMany: false,
      totalTooLarge: false,
      wrongField: false,
    };
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
    };
    const fail = (err: AppError) => {
      result.problem ??= err;
    };
    let total = 0;
    let received = 0;

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(invalid(`The field '${name}' is too long`));
      result.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // A body cut short errors the open file's stream too; the parser's error answers it.
      stream.on('error', () => undefined);
      if (name !== options.field) {
        result.wrongField = true;
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let tooLarge = false;
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxTotalBytes) result.totalTooLarge = true;
        if (!result.totalTooLarge && !tooLarge) chunks.push(chunk);
      });
      stream.on('limit', () => {
        tooLarge = true;
        result.tooLarge += 1;
        chunks.length = 0;
      });
      stream.on('end', () => {
        if (tooLarge) return;
        result.files.push({
          filename: cleanFileName(info.filename ?? ''),
          declaredType: info.mimeType ?? '',
          bytes: Buffer.concat(chunks),
        });
      });
    });
    parser.on('filesLimit', () => {
      result.tooMany = true;
    });
    parser.on('fieldsLimit', () => fail(invalid('Too many fields in the upload')));
    parser.on('partsLimit', () => fail(invalid('Too many parts in the upload')));
    parser.on('error', () => {
      req.unpipe(parser);
      req.resume();
      settle(() => reject(invalid('The upload is not valid multipart data')));
    });
    parser.on('close', () => settle(() => resolve(result)));

    // A body that goes on far beyond the limit is not read to the end.
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > hardLimit) {
        req.unpipe(parser);
        settle(() => reject(withClose(errors.totalTooLarge())));
      }
    });
    // A client that leaves half-way: nobody reads the answer, but the promise settles.
    req.on('error', () => settle(() => reject(invalid('The upload was interrupted'))));
    req.on('close', () => {
      if (!req.complete) settle(() => reject(invalid('The upload was interrupted')));
    });
    req.pipe(parser);
  });
}
