import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@aict/contracts';
import { sendError } from './error-response';
import { isUploadPath, type ServiceName } from './routes';

export interface RequestLimits {
  /** Largest body of the upload and generation routes. */
  maxUploadBytes: number;
  /** Largest body of every other route. */
  maxJsonBytes: number;
  /** A body may stay silent this long. */
  bodyIdleTimeoutMs: number;
  /** A whole body must arrive within this long. */
  bodyTimeoutMs: number;
}

/** The largest body the route accepts: uploads and generation requests, or plain JSON. */
export function maxBodyBytes(limits: RequestLimits, service: ServiceName, path: string): number {
  // Routes that take files (the route table's `upload`), and every generation request.
  return service === 'generation' || isUploadPath(path)
    ? limits.maxUploadBytes
    : limits.maxJsonBytes;
}

/** Answers an error of the gateway's own and closes the connection (the body is not read). */
export function refuse(res: ServerResponse, code: ErrorCode): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, code, { close: true });
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Guards a request body on its way through the proxy, without parsing or buffering it:
 * a declared Content-Length above `maxBytes` is answered 413 at once (nothing is read); a
 * chunked body is cut as it crosses `maxBytes` (413); a body that stays silent too long, or
 * takes too long in all, is cut (408). `onCut` aborts what was forwarded of it, so the
 * service sees an aborted request, never a complete one. Returns false when the request
 * was refused already.
 */
export function guardBody(
  req: IncomingMessage,
  res: ServerResponse,
  limits: RequestLimits,
  maxBytes: number,
  onCut: () => void,
): boolean {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) {
    refuse(res, ErrorCode.GATEWAY_BODY_TOO_LARGE);
    return false;
  }
  if (!hasBody(req)) return true;

  let received = 0;
  let idle: NodeJS.Timeout | undefined;
  const cut = (code: ErrorCode) => {
    stop();
    onCut();
    refuse(res, code);
  };
  const total = setTimeout(() => cut(ErrorCode.GATEWAY_REQUEST_TIMEOUT), limits.bodyTimeoutMs);
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => cut(ErrorCode.GATEWAY_REQUEST_TIMEOUT), limits.bodyIdleTimeoutMs);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) cut(ErrorCode.GATEWAY_BODY_TOO_LARGE);
    else armIdle();
  };
  function stop() {
    clearTimeout(total);
    clearTimeout(idle);
    req.off('data', onData);
  }
  armIdle();
  req.on('data', onData);
  // Adding a 'data' listener sets the body flowing; hold it until the proxy pipes it on
  // (pipe resumes it), so no chunk is read before the service's request exists.
  req.pause();
  req.once('end', stop);
  req.once('close', stop);
  return true;
}
