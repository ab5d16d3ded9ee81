import type { Model } from 'mongoose';
import type { SettingKey } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { live, notDeleted, outboxDelete, outboxUpdate } from '@aict/service-kit';
import { settingId, type SettingRecord } from './setting.model';

export function createSettingRepository(Setting: Model<SettingRecord>) {
  return {
    async get(workspaceId: number | null, key: SettingKey): Promise<SettingRecord | null> {
      return live(await Setting.findById(settingId(workspaceId, key)).lean<SettingRecord>());
    },

    /** Writes the value (already encrypted where it must be) with its events. */
    async put(
      workspaceId: number | null,
      key: SettingKey,
      value: string,
      events: Envelope[],
    ): Promise<void> {
      await Setting.updateOne(
        { _id: settingId(workspaceId, key) },
        outboxUpdate(
          {
            $set: { workspaceId, key, value, updatedAt: new Date() },
            $unset: { _deletedAt: '' },
          },
          events,
        ),
        { upsert: true },
      );
    },

    /** Removes the setting with its events; false when there was none. */
    async remove(
      workspaceId: number | null,
      key: SettingKey,
      events: Envelope[],
    ): Promise<boolean> {
      const result = await Setting.updateOne(
        notDeleted({ _id: settingId(workspaceId, key) }),
        outboxDelete(events),
      );
      return result.matchedCount === 1;
    },

    /** Every setting of a deleted workspace (a scan; rare). */
    async deleteByWorkspace(workspaceId: number): Promise<void> {
      await Setting.deleteMany({ workspaceId });
    },
  };
}

export type SettingRepository = ReturnType<typeof createSettingRepository>;
