import { Schema, type Connection, type Model } from 'mongoose';
import type { SettingKey } from '@aict/contracts';
import { outboxPlugin } from '@aict/service-kit';

/**
 * One setting: `_id` = `<workspaceId|global>:<key>`. The provider key's `value` is encrypted
 * (SecretBox, bound to the `_id`); the others are stored as they are.
 */
export interface SettingRecord {
  _id: string;
  workspaceId: number | null;
  key: SettingKey;
  value: string;
  updatedAt: Date;
}

const settingSchema = new Schema<SettingRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: Number, default: null },
    key: { type: String, required: true },
    value: { type: String, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
settingSchema.plugin(outboxPlugin);
settingSchema.index({ workspaceId: 1 });

export function settingModel(conn: Connection): Model<SettingRecord> {
  return conn.model<SettingRecord>('Setting', settingSchema, 'settings');
}

export function settingId(workspaceId: number | null, key: SettingKey): string {
  return `${workspaceId ?? 'global'}:${key}`;
}
