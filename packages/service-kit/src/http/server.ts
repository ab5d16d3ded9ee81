import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

export interface StartServerOptions {
  host?: string;
  /** 0 lets the system choose (tests); the chosen port is in the result. */
  port: number;
  /**
   * Idle keep-alive sockets stay open this long; above the 60 s of common proxies and
   * load balancers (nginx, AWS ALB), so the proxy closes first and never reuses a
   * socket we are closing.
   */
  keepAliveTimeoutMs?: number;
  /** On close, requests still running after this long are cut. */
  closeGraceMs?: number;
  /**
   * A client must send a request's headers within this long (answered 408, then closed).
   * Default: keepAliveTimeoutMs + 1 s.
   */
  headersTimeoutMs?: number;
  /** A client must send the whole request within this long (Node's `requestTimeout`; default 300 s). */
  requestTimeoutMs?: number;
  /** How often the two timeouts above are checked (Node's default is 30 s). */
  connectionsCheckingIntervalMs?: number;
}

export interface ServerHandle {
  server: http.Server;
  port: number;
  /** `http://host:port` */
  url: string;
  /**
   * Stops accepting connections, lets requests in flight finish (new requests on
   * kept-alive sockets are told `Connection: close`), closes idle sockets, and after
   * `closeGraceMs` cuts what is left. Idempotent.
   */
  close: () => Promise<void>;
}

export async function startServer(
  app: RequestListener,
  options: StartServerOptions,
): Promise<ServerHandle> {
  const { host = '127.0.0.1', port, keepAliveTimeoutMs = 65_000, closeGraceMs = 10_000 } = options;
  let closing: Promise<void> | undefined;

  const server = http.createServer(
    { connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? 30_000 },
    (req, res) => {
      if (closing) res.setHeader('connection', 'close');
      app(req, res);
    },
  );
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // Counted from a request's first byte (Node 20 and 24 do not cut an idle kept-alive socket
  // with it; that is keepAliveTimeout's business).
  server.headersTimeout = options.headersTimeoutMs ?? keepAliveTimeoutMs + 1_000;
  if (options.requestTimeoutMs !== undefined) server.requestTimeout = options.requestTimeoutMs;

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const close = () => {
    closing ??= new Promise<void>((resolve, reject) => {
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const cut = setTimeout(() => server.closeAllConnections(), closeGraceMs);
      server.close((err) => {
        clearInterval(sweep);
        clearTimeout(cut);
        if (err && (err as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(err);
        else resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  };

  return { server, port: address.port, url: `http://${urlHost}:${address.port}`, close };
}
