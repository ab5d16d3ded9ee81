import {
  ERRORS,
  GENERATION_ROUTES,
  IDEMPOTENCY_KEY_HEADER,
  MAX_CHAT_FILE_BYTES,
  type ErrorCode,
  type RouteDef,
} from '@aict/contracts';
import {
  AppError,
  fieldsOf,
  readOneFile,
  RESPONDED,
  workspaceInView,
  type MountRoute,
  type RouteCall,
} from '@aict/service-kit';
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
  { req, res, ctx }: Pick<RouteCall<RouteDef>, 'req' | 'res' | 'ctx'>,
  inView: number | null,
  fingerprintOf: () => string,
  prepare: (workspaceId: number) => Promise<PreparedGeneration>,
): Promise<typeof RESPONDED> {
  // First: a request without a workspace is refused before any write or wait.
  const workspaceId = requireWorkspace(inView);
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
    if (!streaming) res.json(claim.response);
    else {
      const events = new EventStream(res, 0);
      events.open();
      events.done(claim.response);
    }
    return RESPONDED;
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
    return meter?.costOf(usage);
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
    const prepared = await prepare(workspaceId);
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
      res.json(response);
      return RESPONDED;
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
    return RESPONDED;
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

/**
 * Text and image generation: JSON or a stream of events (generateFor answers itself). The
 * generate routes' workspace is the one in view; generate-with-image may name it in its fields.
 */
export function generationRoutes(mount: MountRoute, d: DomainDeps): void {
  const r = GENERATION_ROUTES;

  mount(
    r.generate,
    (call) =>
      generateFor(
        d,
        call,
        call.workspaceId,
        () => sha256(`generate:${JSON.stringify(call.body)}`),
        (workspaceId) => prepareGenerate(d, call.ctx, workspaceId, call.body),
      ),
    { bodyLimit: '2mb' },
  );

  mount(
    r.generateReply,
    (call) =>
      generateFor(
        d,
        call,
        call.workspaceId,
        () => sha256(`generate-reply:${JSON.stringify(call.body)}`),
        (workspaceId) => prepareReply(d, call.ctx, workspaceId, call.body),
      ),
    { bodyLimit: '8mb' },
  );

  mount(r.generateWithImage, async (call) => {
    const file = await readOneFile(call.req, REFERENCE_UPLOAD);
    const fields = fieldsOf(r.generateWithImage, file.fields);
    return generateFor(
      d,
      call,
      workspaceInView(call.ctx, [fields.workspaceId, call.workspaceId]),
      () =>
        sha256(
          `generate-with-image:${JSON.stringify(fields)}:${sha256(file.bytes.toString('base64'))}`,
        ),
      (workspaceId) => prepareGenerateWithImage(d, call.ctx, workspaceId, fields, file),
    );
  });
}
