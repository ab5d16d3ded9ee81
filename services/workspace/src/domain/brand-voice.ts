import {
  BRAND_VOICE_KEY,
  BrandVoice,
  isEmptyBrandVoice,
  type TrustedContext,
} from '@aict/contracts';
import { settingId } from '../data/setting.model';
import { authorizeAdmin, authorizeMember } from './authorize';
import type { DomainDeps } from './domain-deps';
import { withSettingLock } from './locks';

/** A workspace's brand voice as a use case returns it (the route presents it). */
export interface BrandVoiceView extends BrandVoice {
  workspaceId: number;
  updatedAt: Date | null;
}

const EMPTY: BrandVoice = { tone: '', avoidWords: [], useWords: [], example: '' };

/**
 * The stored brand voice of a workspace (null when none), kept as one setting (JSON text);
 * a value that no longer parses counts as none (logged).
 */
export async function readBrandVoice(
  d: DomainDeps,
  workspaceId: number,
): Promise<{ voice: BrandVoice; updatedAt: Date } | null> {
  const record = await d.settings.get(workspaceId, BRAND_VOICE_KEY);
  if (!record) return null;
  try {
    return { voice: BrandVoice.parse(JSON.parse(record.value)), updatedAt: record.updatedAt };
  } catch (err) {
    d.logger.error(
      { workspaceId, key: BRAND_VOICE_KEY, reason: (err as Error).message },
      'stored brand voice cannot be read; treated as none',
    );
    return null;
  }
}

/** GET: any member of the workspace (their generations use it). */
export async function getBrandVoice(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<BrandVoiceView> {
  await authorizeMember(d, ctx, workspaceId);
  const stored = await readBrandVoice(d, workspaceId);
  return { workspaceId, ...(stored?.voice ?? EMPTY), updatedAt: stored?.updatedAt ?? null };
}

/**
 * PUT: its admins and super administrators replace it; all fields empty removes it. The
 * write and its `settings.changed` (the generation service drops its cached configuration)
 * go together through the outbox.
 */
export async function putBrandVoice(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  voice: BrandVoice,
): Promise<BrandVoiceView> {
  await authorizeAdmin(d, ctx, workspaceId);
  const events = [d.bus.envelope('settings.changed', { workspaceId, key: BRAND_VOICE_KEY })];
  const empty = isEmptyBrandVoice(voice);
  const written = await withSettingLock(d, workspaceId, BRAND_VOICE_KEY, async () => {
    if (empty) return d.settings.remove(workspaceId, BRAND_VOICE_KEY, events);
    await d.settings.put(workspaceId, BRAND_VOICE_KEY, JSON.stringify(voice), events);
    return true;
  });
  if (written) d.outbox.flushLater(d.models.Setting, settingId(workspaceId, BRAND_VOICE_KEY));
  if (empty) return { workspaceId, ...EMPTY, updatedAt: null };
  return { workspaceId, ...voice, updatedAt: new Date() };
}
