import type { Model } from 'mongoose';
import type { AttachmentRecord } from './attachment.model';

/** Chat attachments' records, read by `_id`; reads return plain objects. */
export function createAttachmentRepository(Attachment: Model<AttachmentRecord>) {
  return {
    findById: (id: string) => Attachment.findById(id).lean<AttachmentRecord>(),

    /** What the orphan sweep needs to know whether the record points at an object. */
    findKeyOf: (id: string) =>
      Attachment.findById(id).select({ key: 1 }).lean<Pick<AttachmentRecord, 'key'>>(),

    async insertMany(records: AttachmentRecord[]): Promise<void> {
      await Attachment.insertMany(records);
    },

    removeByIds: (ids: string[]) => Attachment.deleteMany({ _id: { $in: ids } }),

    removeOfWorkspace: (workspaceId: number) => Attachment.deleteMany({ workspaceId }),
  };
}

export type AttachmentRepository = ReturnType<typeof createAttachmentRepository>;
