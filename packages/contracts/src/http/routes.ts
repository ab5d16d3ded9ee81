import { AUDIT_ROUTES } from './audit';
import { BRAND_VOICE_ROUTES } from './brand-voice';
import { CONTENT_ROUTES } from './contents';
import { GENERATION_ROUTES } from './generation';
import { PROMPT_ROUTES } from './prompts';
import type { RouteDef } from './route';
import { SESSION_ROUTES } from './session';
import { SETTINGS_ROUTES } from './settings';
import { TOKEN_ROUTES } from './tokens';
import { USAGE_ROUTES } from './usage';
import { USER_ROUTES } from './users';
import { WORKSPACE_ROUTES } from './workspaces';

/** The route tables by group (`session.login`, `prompts.get`…). */
export const ROUTE_TABLES = {
  session: SESSION_ROUTES,
  users: USER_ROUTES,
  workspaces: WORKSPACE_ROUTES,
  settings: SETTINGS_ROUTES,
  prompts: PROMPT_ROUTES,
  generation: GENERATION_ROUTES,
  contents: CONTENT_ROUTES,
  usage: USAGE_ROUTES,
  brandVoice: BRAND_VOICE_ROUTES,
  tokens: TOKEN_ROUTES,
  audit: AUDIT_ROUTES,
} as const satisfies Record<string, Record<string, RouteDef>>;

/**
 * Every `/api` route of every service, the one definition of each: the services mount them,
 * the gateway reads from it which service owns a path and which paths are public, and the
 * OpenAPI document is generated from it.
 */
export const ROUTES: readonly RouteDef[] = Object.values(ROUTE_TABLES).flatMap(
  (group): RouteDef[] => Object.values(group),
);
