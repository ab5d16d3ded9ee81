import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { MAX_BODY_BYTES } from './http';
import { simErrors } from './openai-errors';

export interface MultipartFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: MultipartFile[];
}

/** Parses an already-read multipart/form-data body. */
export function parseMultipart(raw: Buffer, headers: IncomingHttpHeaders): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { fileSize: MAX_BODY_BYTES, fieldSize: 1024 * 1024 } });
    } catch (error) {
      reject(simErrors.badRequest(`Invalid multipart body: ${(error as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    const files: MultipartFile[] = [];
    const pending: Array<Promise<void>> = [];
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      pending.push(
        new Promise((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.push({
              field,
              filename: info.filename ?? '',
              mimeType: info.mimeType,
              data: Buffer.concat(chunks),
            });
            done();
          });
        }),
      );
    });
    parser.on('close', () => void Promise.all(pending).then(() => resolve({ fields, files })));
    parser.on('error', (error: Error) =>
      reject(simErrors.badRequest(`Invalid multipart body: ${error.message}`)),
    );
    parser.end(raw);
  });
}
