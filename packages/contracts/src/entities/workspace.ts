import { z } from 'zod';
import { WorkspaceId } from '../ids';
import { IsoDateTime, ResourceUrl } from '../primitives';

/** Optional fields are absent when unset, never null. */
export const Workspace = z.object({
  id: WorkspaceId,
  name: z.string(),
  slug: z.string(),
  description: z.string().optional(),
  logoUrl: ResourceUrl.optional(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Workspace = z.infer<typeof Workspace>;
