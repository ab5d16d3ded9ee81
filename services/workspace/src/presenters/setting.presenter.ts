import { maskSecret, type SettingKey, type SettingResponse } from '@aict/contracts';

export type SettingScope = NonNullable<SettingResponse['scope']>;

export function presentSetting(
  key: SettingKey,
  value: string | null,
  scope: SettingScope,
): SettingResponse {
  return { key, value, scope };
}

/** The provider key as a browser may see it: never in full. */
export function presentSecret(
  key: SettingKey,
  plaintext: string | null,
  scope: SettingScope,
): SettingResponse {
  return { key, value: plaintext === null ? null : maskSecret(plaintext), scope };
}
