import { z } from 'zod';
import { SETTINGS_KEYS } from '../constants';

const SETTING_KEY_VALUES = Object.values(SETTINGS_KEYS) as [
  (typeof SETTINGS_KEYS)[keyof typeof SETTINGS_KEYS],
  ...(typeof SETTINGS_KEYS)[keyof typeof SETTINGS_KEYS][],
];

export const SettingKey = z.enum(SETTING_KEY_VALUES, {
  error: `Setting key must be one of: ${SETTING_KEY_VALUES.join(', ')}`,
});
export type SettingKey = z.infer<typeof SettingKey>;

/**
 * A setting as the browser gets it. `value` is null when unset. The provider key is never
 * sent in full: its value is masked (see maskSecret), e.g. 'sk-…wxyz'.
 */
export const SettingResponse = z.object({ key: SettingKey, value: z.string().nullable() });
export type SettingResponse = z.infer<typeof SettingResponse>;
