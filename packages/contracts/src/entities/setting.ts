import { z } from 'zod';
import { BRAND_VOICE_KEY, OPENAI_BASE_URL_KEY, SETTINGS_KEYS } from '../constants';

type KnownSettingKey =
  | (typeof SETTINGS_KEYS)[keyof typeof SETTINGS_KEYS]
  | typeof OPENAI_BASE_URL_KEY
  | typeof BRAND_VOICE_KEY;

const SETTING_KEY_VALUES = [
  ...Object.values(SETTINGS_KEYS),
  OPENAI_BASE_URL_KEY,
  BRAND_VOICE_KEY,
] as KnownSettingKey[] as [KnownSettingKey, ...KnownSettingKey[]];

export const SettingKey = z.enum(SETTING_KEY_VALUES, {
  error: `Setting key must be one of: ${SETTING_KEY_VALUES.join(', ')}`,
});
export type SettingKey = z.infer<typeof SettingKey>;

/**
 * A setting as the browser gets it. `value` is null when unset. The provider key is never
 * sent in full: its value is masked (see maskSecret), e.g. 'sk-…wxyz'.
 */
export const SettingResponse = z.object({
  key: SettingKey,
  value: z.string().nullable(),
  /**
   * Where `value` comes from: the workspace's own setting, the global one (a workspace
   * without its own), or the product default (SPEC §9 models). Absent on older servers.
   */
  scope: z.enum(['workspace', 'global', 'default']).optional(),
});
export type SettingResponse = z.infer<typeof SettingResponse>;
