import helmet from 'helmet';

/**
 * Security headers for everything the gateway serves. The CSP allows no inline script;
 * inline styles stay allowed for UI libraries that inject style elements.
 */
export function securityHeaders() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
  });
}

/**
 * The same headers as a list, computed once (for `/api`, which does not go through
 * express): every header helmet sets here is the same on every response.
 */
export function securityHeaderList(): ReadonlyArray<readonly [string, string]> {
  const headers: Array<[string, string]> = [];
  const res = {
    setHeader: (name: string, value: unknown) =>
      void headers.push([name.toLowerCase(), String(value)]),
    removeHeader: () => undefined,
  };
  let sync = false;
  securityHeaders()({} as never, res as never, (err?: unknown) => {
    if (err) throw err;
    sync = true;
  });
  if (!sync) throw new Error('security headers: helmet did not finish synchronously');
  return headers;
}
