/**
 * Which service owns which `/api` path. The first matching rule wins, so the more
 * specific paths come first (`/api/user/workspaces` before `/api/user`).
 */
export type ServiceName = 'auth' | 'workspace' | 'prompt' | 'content' | 'generation';

export const ROUTES: ReadonlyArray<{ pattern: RegExp; service: ServiceName }> = [
  { pattern: /^\/api\/user\/workspaces([/?]|$)/, service: 'workspace' },
  { pattern: /^\/api\/users\/[^/]+\/workspaces([/?]|$)/, service: 'workspace' },
  { pattern: /^\/api\/(user|users|login|register|logout)([/?]|$)/, service: 'auth' },
  {
    pattern: /^\/api\/(workspaces|settings|models|test-openai-connection)([/?]|$)/,
    service: 'workspace',
  },
  { pattern: /^\/api\/prompts([/?]|$)/, service: 'prompt' },
  { pattern: /^\/api\/(contents|stats)([/?]|$)/, service: 'content' },
  {
    pattern: /^\/api\/(generate|generate-reply|generate-with-image|uploads|images)([/?]|$)/,
    service: 'generation',
  },
];

export function serviceFor(path: string): ServiceName | undefined {
  return ROUTES.find((r) => r.pattern.test(path))?.service;
}
