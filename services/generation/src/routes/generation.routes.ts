import type { Request, RequestHandler, Response, Router } from 'express';
import {
  ERRORS,
  GenerateBody,
  GenerateReplyBody,
  GenerateWithImageFields,
  IDEMPOTENCY_KEY_HEADER,
  MAX_CHAT_FILE_BYTES,
  type ErrorCode,
} from '@aict/contracts';
import { AppError, contextOf, jsonBody, readOneFile } from '@aict/service-kit';
import { z } from 'zod';
import type { DomainDeps } from '../domain/domain-deps';
import { prepareGenerateWithImage } from '../domain/generate-image';
import { prepareGenerate, prepareReply, type PreparedGeneration } from '../domain/generate-text';
import { requireWorkspace } from '../domain/upstream';
import { notAnImage } from '../domain/generation.errors';
import {
  claimKey,
  completeKey,
  contentIdOf,
  holdKey,
  releaseKey,
  sha256,
} from '../domain/idempotency';
import { newContentId } from '../domain/save-generation';
import { startMeter, type CallUsage, type Meter } from '../domain/usage';
import { EventStream, wantsEventStream } from '../lib/sse';
import { codeError } from '../provider/provider-errors';

/** generate-with-image: one reference image in `file`, the same size limit as a chat file. */
const REFERENCE_UPLOAD = {
  field: 'file',
  maxFileBytes: MAX_CHAT_FILE_BYTES,
  maxFields: 100,
  maxFieldBytes: 64 * 1024,
  errors: {
    tooLarge: () => codeError('FILE.TOO_LARGE'),
    tooMany: () => codeError('VALIDATION.FAILED', "Send one image in the field 'file'"),
    missing: notAnImage,
    notMultipart: () =>
      new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE', 415, 'Send the files as multipart/form-data'),
  },
};

const IdempotencyKey = z.string().trim().min(1).max(200, 'Idempotency-Key is too long');

function streamErrorOf(err: unknown) {
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
  const code: ErrorCode = 'INTERNAL';
  return { status: ERRORS[code].status, code, message: ERRORS[code].message };
}

/**
 * Runs one generation for a route: Idempotency-Key (claim, replay, release on failure), a
 * place among the workspace's running generations (queued, or 429 with Retry-After when its
 * queue is full; held until the answer or the stream ends), the checks (`prepare`, plain JSON
 * errors), then the provider call answered as JSON or as a stream of events. A client that
 * leaves a stream stops the provider call.
 */
async function generateFor(
  d: DomainDeps,
  req: Request,
  res: Response,
  workspaceNamed: number | null | undefined,
  fingerprintOf: () => string,
  prepare: () => Promise<PreparedGeneration>,
): Promise<void> {
  const ctx = contextOf(req);
  // First: a request without a workspace is refused before any write or wait.
  const workspaceId = requireWorkspace(ctx, [workspaceNamed]);
  const slotKey = `workspace:${workspaceId}`;
  const clientGone = new AbortController();
  let releaseSlot: (() => void) | undefined;
  res.on('close', () => {
    if (res.writableFinished) return;
    clientGone.abort();
    // The place goes back as the client leaves, not once the aborted call has unwound.
    releaseSlot?.();
  });
  const streaming = wantsEventStream(req.headers.accept);
  const rawKey = req.headers[IDEMPOTENCY_KEY_HEADER];
  const key = rawKey === undefined ? null : IdempotencyKey.parse(rawKey);
  const claim = key ? await claimKey(d, ctx.uid!, key, fingerprintOf()) : null;
  if (claim?.kind === 'replay') {
    res.set('idempotent-replayed', 'true');
    if (!streaming) return void res.json(claim.response);
    const events = new EventStream(res, 0);
    events.open();
    return events.done(claim.response);
  }
  const claimId = claim?.id ?? null;
  const contentId = claimId ? contentIdOf(claimId) : undefined;
  const release = claimId ? holdKey(d, claimId) : () => undefined;
  // Stopped (and not saved) when the caller's rights go meanwhile (user deleted, removed…).
  const live = d.liveGenerations.open(ctx, workspaceId);
  // The usage ledger: what the provider call used, settled however the call ends.
  let meter: Meter | null = null;
  let used: CallUsage | null = null;
  const onUsage = (usage: CallUsage) => {
    used = usage;
  };
  /**
   * Once. A call that had a budget or a cap to respect settles before its answer goes out (the
   * next call is decided on its real cost); any other settles after it (usage readers wait).
   */
  const settle = async () => {
    const settling = meter;
    meter = null;
    if (!settling) return;
    const settled = settling
      .settle(used)
      .catch((err: unknown) => d.logger.error({ err }, 'the usage of a call was not recorded'));
    if (settling.guarded) await settled;
    else d.usageRuntime.settles.track(workspaceId, settled);
  };

  try {
    releaseSlot = await d.generationSlots.acquire(slotKey, clientGone.signal);
    const prepared = await prepare();
    // Rate limit, user cap and budget: refused as plain JSON, before the provider and any stream.
    const callId = contentId ?? newContentId();
    meter = await startMeter(d, ctx, workspaceId, callId, prepared.meter);
    if (!streaming) {
      const response = await prepared.run({
        contentId: callId,
        signal: live.signal,
        revoked: live.signal,
        onUsage,
      });
      await settle();
      if (claimId) await completeKey(d, claimId, response);
      return void res.json(response);
    }

    const events = new EventStream(res, d.config.STREAM_FLUSH_MS);
    events.open();
    try {
      const response = await prepared.run({
        contentId: callId,
        signal: AbortSignal.any([clientGone.signal, live.signal]),
        revoked: live.signal,
        onDelta: (text) => events.delta(text),
        onUsage,
      });
      await settle();
      if (claimId) await completeKey(d, claimId, response);
      events.done(response);
    } catch (err) {
      await settle();
      if (claimId) await releaseKey(d, claimId).catch(() => undefined);
      if (!(err instanceof AppError)) d.logger.error({ err }, 'streamed generation failed');
      events.error(streamErrorOf(err));
    }
  } catch (err) {
    await settle();
    if (claimId) await releaseKey(d, claimId).catch(() => undefined);
    throw err;
  } finally {
    await settle();
    live.close();
    releaseSlot?.();
    release();
  }
}

export function generationRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  router.post('/api/generate', signedIn, jsonBody('2mb'), async (req, res) => {
    const body = GenerateBody.parse(req.body ?? {});
    await generateFor(
      d,
      req,
      res,
      body.workspaceId,
      () => sha256(`generate:${JSON.stringify(body)}`),
      () => prepareGenerate(d, contextOf(req), body),
    );
  });

  router.post('/api/generate-reply', signedIn, jsonBody('8mb'), async (req, res) => {
    const body = GenerateReplyBody.parse(req.body ?? {});
    await generateFor(
      d,
      req,
      res,
      body.workspaceId,
      () => sha256(`generate-reply:${JSON.stringify(body)}`),
      () => prepareReply(d, contextOf(req), body),
    );
  });

  router.post('/api/generate-with-image', signedIn, async (req, res) => {
    const file = await readOneFile(req, REFERENCE_UPLOAD);
    const fields = GenerateWithImageFields.parse(file.fields);
    await generateFor(
      d,
      req,
      res,
      fields.workspaceId,
      () =>
        sha256(
          `generate-with-image:${JSON.stringify(fields)}:${sha256(file.bytes.toString('base64'))}`,
        ),
      () => prepareGenerateWithImage(d, contextOf(req), fields, file),
    );
  });
}
