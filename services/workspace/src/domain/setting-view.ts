import type { SettingKey, SettingResponse } from '@aict/contracts';

/** Where a setting's value comes from. */
export type SettingScope = NonNullable<SettingResponse['scope']>;

/**
 * A setting as a use case hands it to its route, unmasked: the route presents it (the
 * provider key is masked there, never sent in full).
 */
export interface SettingView {
  key: SettingKey;
  value: string | null;
  scope: SettingScope;
}
