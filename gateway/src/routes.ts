/**
 * Which service owns which `/api` path. The first matching rule wins, so the more
 * specific paths come first (`/api/user/workspaces` before `/api/user`).
 */
export type ServiceName = 'auth' | 'workspace' | 'prompt' | 'content' | 'generation';

export interface RouteRule {
  pattern: RegExp;
  service: ServiceName;
  /**
   * The label of the rule's requests in metrics and spans; when absent,
   * `/api/<first group>*` (the alternation names a fixed set of first segments).
   */
  route?: string;
}

export const ROUTES: ReadonlyArray<RouteRule> = [
  {
    pattern: /^\/api\/user\/workspaces([/?]|$)/,
    service: 'workspace',
    route: '/api/user/workspaces',
  },
  {
    pattern: /^\/api\/users\/[^/]+\/workspaces([/?]|$)/,
    service: 'workspace',
    route: '/api/users/:id/workspaces',
  },
  { pattern: /^\/api\/(user|users|login|register|logout)([/?]|$)/, service: 'auth' },
  {
    pattern: /^\/api\/(workspaces|settings|models|test-openai-connection)([/?]|$)/,
    service: 'workspace',
  },
  { pattern: /^\/api\/prompts([/?]|$)/, service: 'prompt', route: '/api/prompts*' },
  { pattern: /^\/api\/(contents|stats)([/?]|$)/, service: 'content' },
  {
    pattern: /^\/api\/(generate|generate-reply|generate-with-image|uploads|images)([/?]|$)/,
    service: 'generation',
  },
];

export function serviceFor(path: string): ServiceName | undefined {
  return ROUTES.find((r) => r.pattern.test(path))?.service;
}

/**
 * The owner of an `/api` path and the route label of the request (`/api/prompts*`,
 * `/api/users/:id/workspaces`): what the gateway's metrics and spans are labelled with,
 * never the raw URL.
 */
export function routeFor(path: string): { service: ServiceName; route: string } | undefined {
  for (const rule of ROUTES) {
    const match = rule.pattern.exec(path);
    if (match) return { service: rule.service, route: rule.route ?? `/api/${match[1]}*` };
  }
  return undefined;
}
