import { OPENAI_BASE_URL_KEY, SETTINGS_KEYS, type TrustedContext } from '@aict/contracts';
import { assertSuperAdmin } from '@aict/service-kit';
import { settingId } from '../data/setting.model';
import { assertAllowedBaseUrl, normaliseBaseUrl } from '../lib/provider-url';
import { auditEnvelope } from './audit-act';
import { authorizeAdmin } from './authorize';
import type { DomainDeps } from './domain-deps';
import { withSettingLock } from './locks';
import type { SettingView } from './setting-view';

/** A workspace id, or null for the global settings. */
export type SettingScopeId = number | null;

const API_KEY = SETTINGS_KEYS.openaiApiKey;
const scopeName = (scope: SettingScopeId) => (scope === null ? 'global' : 'workspace');

/** Workspace settings: its admins (and super administrators). Global ones: super administrators. */
export async function authorizeSettingScope(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
): Promise<void> {
  if (scope === null) assertSuperAdmin(ctx);
  else await authorizeAdmin(d, ctx, scope);
}

/** The decrypted provider key of a scope; null when unset or unreadable (logged, never shown). */
export async function readApiKey(d: DomainDeps, scope: SettingScopeId): Promise<string | null> {
  const record = await d.settings.get(scope, API_KEY);
  if (!record) return null;
  try {
    return d.secrets.open(record.value, settingId(scope, API_KEY));
  } catch (err) {
    d.logger.error(
      { workspaceId: scope, key: API_KEY, reason: (err as Error).message },
      'stored API key cannot be decrypted (was SETTINGS_ENCRYPTION_KEY changed?)',
    );
    return null;
  }
}

function changed(
  d: DomainDeps,
  scope: SettingScopeId,
  key: typeof API_KEY | typeof OPENAI_BASE_URL_KEY,
) {
  return d.bus.envelope('settings.changed', { workspaceId: scope, key });
}

/** The audit event of a provider setting's change: that a key changed, never the key. */
function audited(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
  action: string,
  after: Record<string, string | null>,
) {
  return auditEnvelope(d, ctx, {
    action,
    workspaceId: scope,
    targetType: 'setting',
    targetId: scope === null ? 'global' : `workspace:${scope}`,
    after,
  });
}

/** A base URL as the log shows it: scheme, host and path (no credentials or query). */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unparsable)';
  }
}

function flush(
  d: DomainDeps,
  scope: SettingScopeId,
  key: typeof API_KEY | typeof OPENAI_BASE_URL_KEY,
) {
  d.outbox.flushLater(d.models.Setting, settingId(scope, key));
}

// The provider API key ------------------------------------------------------------------

export async function getApiKey(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
): Promise<SettingView> {
  await authorizeSettingScope(d, ctx, scope);
  return { key: API_KEY, value: await readApiKey(d, scope), scope: scopeName(scope) };
}

/** Stores the key encrypted (bound to its scope); answers it (the route masks it). */
export async function putApiKey(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
  value: string,
): Promise<SettingView> {
  await authorizeSettingScope(d, ctx, scope);
  const sealed = d.secrets.seal(value, settingId(scope, API_KEY));
  await withSettingLock(d, scope, API_KEY, () =>
    d.settings.put(scope, API_KEY, sealed, [
      changed(d, scope, API_KEY),
      audited(d, ctx, scope, 'settings.api-key-changed', { apiKey: 'changed' }),
    ]),
  );
  flush(d, scope, API_KEY);
  return { key: API_KEY, value, scope: scopeName(scope) };
}

export async function deleteApiKey(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
): Promise<void> {
  await authorizeSettingScope(d, ctx, scope);
  const removed = await withSettingLock(d, scope, API_KEY, () =>
    d.settings.remove(scope, API_KEY, [
      changed(d, scope, API_KEY),
      audited(d, ctx, scope, 'settings.api-key-removed', { apiKey: null }),
    ]),
  );
  if (removed) flush(d, scope, API_KEY);
}

// The provider base URL -----------------------------------------------------------------

export async function getBaseUrl(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
): Promise<SettingView> {
  await authorizeSettingScope(d, ctx, scope);
  const record = await d.settings.get(scope, OPENAI_BASE_URL_KEY);
  return { key: OPENAI_BASE_URL_KEY, value: record?.value ?? null, scope: scopeName(scope) };
}

/** Refused when it reaches a private, loopback or link-local address (unless allowed). */
export async function putBaseUrl(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
  value: string,
): Promise<SettingView> {
  await authorizeSettingScope(d, ctx, scope);
  const url = normaliseBaseUrl(value);
  await assertAllowedBaseUrl(url, { allowedOrigins: d.config.PROVIDER_URL_ALLOWED_ORIGINS });
  await withSettingLock(d, scope, OPENAI_BASE_URL_KEY, () =>
    d.settings.put(scope, OPENAI_BASE_URL_KEY, url, [
      changed(d, scope, OPENAI_BASE_URL_KEY),
      audited(d, ctx, scope, 'settings.base-url-changed', { baseUrl: shownUrl(url) }),
    ]),
  );
  flush(d, scope, OPENAI_BASE_URL_KEY);
  return { key: OPENAI_BASE_URL_KEY, value: url, scope: scopeName(scope) };
}

export async function deleteBaseUrl(
  d: DomainDeps,
  ctx: TrustedContext,
  scope: SettingScopeId,
): Promise<void> {
  await authorizeSettingScope(d, ctx, scope);
  const events = [
    changed(d, scope, OPENAI_BASE_URL_KEY),
    audited(d, ctx, scope, 'settings.base-url-removed', { baseUrl: null }),
  ];
  const removed = await withSettingLock(d, scope, OPENAI_BASE_URL_KEY, () =>
    d.settings.remove(scope, OPENAI_BASE_URL_KEY, events),
  );
  if (removed) flush(d, scope, OPENAI_BASE_URL_KEY);
}
