import type { EventData } from '@aict/contracts';
import type { PromptRecord } from '../data/prompt.model';

/** The data of prompt.created / prompt.updated: never the template or the reference images. */
export function promptSnapshot(
  record: Pick<
    PromptRecord,
    '_id' | 'workspaceId' | 'userId' | 'name' | 'category' | 'contentType' | 'model' | 'isPublic'
  >,
  isDefault: boolean,
): EventData<'prompt.created'> {
  return {
    promptId: record._id,
    workspaceId: record.workspaceId,
    userId: record.userId,
    name: record.name,
    category: record.category,
    contentType: record.contentType,
    model: record.model,
    isPublic: record.isPublic,
    isDefault,
  };
}
