import { maskSecret, type SettingResponse } from '@aict/contracts';
import type { SettingView } from '../domain/setting-view';

export function presentSetting({ key, value, scope }: SettingView): SettingResponse {
  return { key, value, scope };
}

/** The provider key as a browser may see it: never in full. */
export function presentSecret({ key, value, scope }: SettingView): SettingResponse {
  return { key, value: value === null ? null : maskSecret(value), scope };
}
