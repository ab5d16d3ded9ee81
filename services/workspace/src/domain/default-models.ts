import {
  DEFAULT_IMAGE_MODEL,
  DEFAULT_TEXT_MODEL,
  IMAGE_MODELS,
  SETTINGS_KEYS,
  TEXT_MODELS,
  type TrustedContext,
} from '@aict/contracts';
import { assertSuperAdmin } from '@aict/service-kit';
import { settingId } from '../data/setting.model';
import { auditEnvelope } from './audit-act';
import { authorizeAdmin, authorizeMember } from './authorize';
import type { DomainDeps } from './domain-deps';
import { withSettingLock } from './locks';
import type { SettingScope, SettingView } from './setting-view';

export type ModelKind = 'text' | 'image';

const MODELS = {
  text: { key: SETTINGS_KEYS.defaultTextModel, list: TEXT_MODELS, fallback: DEFAULT_TEXT_MODEL },
  image: {
    key: SETTINGS_KEYS.defaultImageModel,
    list: IMAGE_MODELS,
    fallback: DEFAULT_IMAGE_MODEL,
  },
} as const;

/** The models offered (SPEC §9). */
export function listModels(kind: ModelKind): string[] {
  return [...MODELS[kind].list];
}

/**
 * The default model of a workspace: its own, else the global one, else SPEC §9's. A stored
 * value no longer in the list is skipped.
 */
export async function resolveDefaultModel(
  d: DomainDeps,
  kind: ModelKind,
  workspaceId: number | null,
): Promise<{ value: string; scope: SettingScope }> {
  const { key, list, fallback } = MODELS[kind];
  const valid = (value: string | undefined) =>
    value !== undefined && (list as readonly string[]).includes(value);
  const [own, global] = await Promise.all([
    workspaceId === null ? null : d.settings.get(workspaceId, key),
    d.settings.get(null, key),
  ]);
  if (valid(own?.value)) return { value: own!.value, scope: 'workspace' };
  if (valid(global?.value)) return { value: global!.value, scope: 'global' };
  return { value: fallback, scope: 'default' };
}

/**
 * GET /api/settings/default_<kind>_model: any signed-in user. With a workspace in view
 * (X-Workspace-ID) its default, else the global one.
 */
export async function getDefaultModel(
  d: DomainDeps,
  ctx: TrustedContext,
  kind: ModelKind,
  workspaceId: number | null,
): Promise<SettingView> {
  if (workspaceId !== null) await authorizeMember(d, ctx, workspaceId);
  const { value, scope } = await resolveDefaultModel(d, kind, workspaceId);
  return { key: MODELS[kind].key, value, scope };
}

/**
 * PUT: with a workspace in view, that workspace's default (its admins); without one, the
 * global default (super administrators).
 */
export async function putDefaultModel(
  d: DomainDeps,
  ctx: TrustedContext,
  kind: ModelKind,
  workspaceId: number | null,
  value: string,
): Promise<SettingView> {
  const scope = workspaceId;
  if (scope === null) assertSuperAdmin(ctx);
  else await authorizeAdmin(d, ctx, scope);
  const { key } = MODELS[kind];
  await withSettingLock(d, scope, key, async () => {
    const before = (await d.settings.get(scope, key))?.value ?? null;
    await d.settings.put(scope, key, value, [
      d.bus.envelope('settings.changed', { workspaceId: scope, key }),
      auditEnvelope(d, ctx, {
        action: 'settings.default-model-changed',
        workspaceId: scope,
        targetType: 'setting',
        targetId: scope === null ? `global:${key}` : `workspace:${scope}:${key}`,
        before: { [key]: before },
        after: { [key]: value },
      }),
    ]);
  });
  d.outbox.flushLater(d.models.Setting, settingId(scope, key));
  return { key, value, scope: scope === null ? 'global' : 'workspace' };
}
