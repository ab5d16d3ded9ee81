import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJsonBody, readBody, sendJson } from '../lib/http';
import { SimHttpError } from '../lib/openai-errors';
import type { RequestFilter } from '../recorded-request';
import { ConfigError } from '../sim-config';
import type { SimState } from '../sim-state';

/**
 * The control API over HTTP, for a simulator running as its own process:
 *   GET  /__sim/config            current config
 *   POST /__sim/config            merge a partial config (same shape as control.set)
 *   POST /__sim/reset             defaults, empty request log
 *   GET  /__sim/requests          { requests } (?path=&model=&apiKey=)
 *   DELETE /__sim/requests        empty the request log
 */
export async function handleSimControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  state: SimState,
): Promise<void> {
  const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
  try {
    switch (route) {
      case 'GET /__sim/config':
        return sendJson(res, 200, state.config());
      case 'POST /__sim/config':
        return sendJson(res, 200, state.set(parseJsonBody(await readBody(req)) as never));
      case 'POST /__sim/reset':
        return sendJson(res, 200, state.reset());
      case 'GET /__sim/requests': {
        const filter: RequestFilter = {};
        for (const key of ['path', 'model', 'apiKey'] as const) {
          const value = url.searchParams.get(key);
          if (value !== null) filter[key] = value;
        }
        return sendJson(res, 200, { requests: state.requests(filter) });
      }
      case 'DELETE /__sim/requests':
        state.clearRequests();
        res.writeHead(204).end();
        return;
      default:
        return sendJson(res, 404, {
          error: {
            message: `Unknown control route ${route}`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      return sendJson(res, 400, {
        error: {
          message: error.message,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_config',
        },
      });
    }
    if (error instanceof SimHttpError) return sendJson(res, error.status, error.body());
    throw error;
  }
}
