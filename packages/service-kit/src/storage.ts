import type { Readable } from 'node:stream';
import * as Minio from 'minio';
import type { Logger } from 'pino';
import { instrumentObjectStore } from './observability/storage';
import { withTimeout, type ReadinessCheck } from './readiness';
import { isNetworkOrStoreUnavailable, storageUnavailable } from './unavailable';

export interface ObjectStoreConfig {
  /** `http://127.0.0.1:9000` (the scheme decides TLS; the port defaults to 80/443). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /**
   * Multipart part size. A stream of unknown size is buffered one part at a time, so
   * this bounds the memory an upload holds (minio-js would otherwise pick ~550 MB).
   */
  partSizeBytes?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  contentType: string;
  etag: string;
  lastModified: Date;
  /** User metadata (`x-amz-meta-*`, names lower-cased, without the prefix). */
  metadata: Record<string, string>;
}

export interface PutOptions {
  contentType: string;
  /** Known size in bytes; for a stream without it the upload goes part by part. */
  size?: number;
  /** User metadata, stored as `x-amz-meta-<name>`. ASCII values only. */
  metadata?: Record<string, string>;
}

export interface ObjectStore {
  readonly bucket: string;
  /** Creates the bucket if it does not exist (safe when several processes race). */
  ensureBucket(): Promise<void>;
  put(key: string, body: Readable | Buffer, options: PutOptions): Promise<{ etag: string }>;
  /** The object's bytes and facts, or null when there is no such key. `range` reads a slice. */
  get(
    key: string,
    range?: { offset: number; length?: number },
  ): Promise<{ stream: Readable; info: ObjectInfo } | null>;
  /** The object's facts, or null when there is no such key. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** Removes one object; removing a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (must not be empty); returns how many. */
  removePrefix(prefix: string): Promise<number>;
  /** Keys starting with `prefix` (all of them; for small sets such as one workspace's logo). */
  list(prefix: string): Promise<string[]>;
  /** /readyz check: the bucket exists and MinIO answers. */
  readiness(name?: string, timeoutMs?: number): ReadinessCheck;
  readonly client: Minio.Client;
}

const NOT_FOUND_CODES = new Set(['NotFound', 'NoSuchKey', 'NoSuchObject']);

function isNotFound(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    NOT_FOUND_CODES.has(String((err as { code?: unknown }).code))
  );
}

/**
 * Keys are chosen by the caller, server-side (`<workspaceId>/logo/<uuid>`); this only
 * refuses keys that are plainly wrong so a mistake fails loudly rather than oddly.
 */
export function assertValidKey(key: string): void {
  if (
    typeof key !== 'string' ||
    key.length === 0 ||
    Buffer.byteLength(key) > 1024 ||
    key.startsWith('/') ||
    key.split('/').some((s) => s === '..' || s === '.') ||
    [...key].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '\\')
  ) {
    throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
  }
}

export function createObjectStore(config: ObjectStoreConfig, logger: Logger): ObjectStore {
  const url = new URL(config.endpoint);
  const useSSL = url.protocol === 'https:';
  const client = new Minio.Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region ?? 'us-east-1',
    pathStyle: true,
    partSize: config.partSizeBytes ?? 8 * 1024 * 1024,
  });
  const { bucket } = config;

  const toInfo = (key: string, stat: Minio.BucketItemStat): ObjectInfo => {
    const metadata: Record<string, string> = {};
    let contentType = 'application/octet-stream';
    for (const [name, value] of Object.entries(stat.metaData ?? {})) {
      const lower = name.toLowerCase();
      if (lower === 'content-type') contentType = String(value);
      else if (lower.startsWith('x-amz-meta-'))
        metadata[lower.slice('x-amz-meta-'.length)] = String(value);
      else if (!['content-length', 'etag', 'last-modified'].includes(lower))
        metadata[lower] = String(value);
    }
    return {
      key,
      size: stat.size,
      contentType,
      etag: stat.etag,
      lastModified: stat.lastModified,
      metadata,
    };
  };

  const stat = async (key: string): Promise<ObjectInfo | null> => {
    assertValidKey(key);
    try {
      return toInfo(key, await client.statObject(bucket, key));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };

  const list = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    const stream = client.listObjectsV2(bucket, prefix, true);
    for await (const item of stream) {
      if (item.name) keys.push(item.name);
    }
    return keys;
  };

  return instrumentObjectStore(
    answerUnavailable({
      bucket,
      client,

      async ensureBucket() {
        if (await client.bucketExists(bucket)) return;
        try {
          await client.makeBucket(bucket, config.region ?? 'us-east-1');
          logger.info({ bucket }, 'bucket created');
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
        }
      },

      async put(key, body, options) {
        assertValidKey(key);
        const meta: Record<string, string> = { 'Content-Type': options.contentType };
        for (const [name, value] of Object.entries(options.metadata ?? {}))
          meta[`X-Amz-Meta-${name}`] = value;
        const size = Buffer.isBuffer(body) ? body.length : options.size;
        const result = await client.putObject(bucket, key, body, size, meta);
        return { etag: result.etag };
      },

      async get(key, range) {
        const info = await stat(key);
        if (!info) return null;
        try {
          const stream = range
            ? await client.getPartialObject(bucket, key, range.offset, range.length)
            : await client.getObject(bucket, key);
          return { stream, info };
        } catch (err) {
          // Removed between the stat and the read.
          if (isNotFound(err)) return null;
          throw err;
        }
      },

      stat,

      async remove(key) {
        assertValidKey(key);
        await client.removeObject(bucket, key);
      },

      async removePrefix(prefix) {
        if (!prefix) throw new Error('removePrefix needs a non-empty prefix');
        const keys = await list(prefix);
        for (let i = 0; i < keys.length; i += 1000) {
          const batch = keys.slice(i, i + 1000);
          const results = await client.removeObjects(bucket, batch);
          const failed = results.filter((r) => r && r.Error && r.Error.Code);
          if (failed.length > 0) {
            const first = failed[0]?.Error;
            throw new Error(
              `Could not remove ${failed.length} object(s) under ${prefix}: ${first?.Code} ${first?.Message ?? ''}`.trim(),
            );
          }
        }
        if (keys.length > 0)
          logger.debug({ bucket, prefix, removed: keys.length }, 'objects removed');
        return keys.length;
      },

      list,

      readiness(name = 'minio', timeoutMs = 1_500) {
        return {
          name,
          check: async () => {
            const exists = await withTimeout(
              () => client.bucketExists(bucket),
              timeoutMs,
              'bucketExists',
            );
            if (!exists) throw new Error(`bucket ${bucket} does not exist`);
          },
        };
      },
    }),
  );
}

const GUARDED = ['ensureBucket', 'put', 'get', 'stat', 'remove', 'removePrefix', 'list'] as const;

/**
 * The same store, whose calls fail with 503 STORAGE.UNAVAILABLE (Retry-After) when MinIO
 * cannot be reached or cannot serve now, instead of the socket error (which became a 500).
 */
function answerUnavailable(store: ObjectStore): ObjectStore {
  const guarded = { ...store };
  for (const operation of GUARDED) {
    const original = store[operation] as (...args: unknown[]) => Promise<unknown>;
    (guarded as Record<string, unknown>)[operation] = async (...args: unknown[]) => {
      try {
        return await original.apply(store, args);
      } catch (err) {
        throw isNetworkOrStoreUnavailable(err) ? storageUnavailable(err) : err;
      }
    };
  }
  return guarded;
}
