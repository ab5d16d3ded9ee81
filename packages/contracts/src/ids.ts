import { z } from 'zod';
import { integer } from './primitives';

/**
 * A workspace id: a positive integer. Accepts a number or a string of digits (it arrives in
 * the X-Workspace-ID header and in query strings); always yields a number.
 */
export const WorkspaceId = integer('Workspace id', 1);
export type WorkspaceId = z.infer<typeof WorkspaceId>;

/**
 * The id of a user, prompt, content item or attachment: an opaque string of 1–64 letters,
 * digits, '_' or '-' (ObjectId hex, UUID and nanoid all fit; '$', '.', '/' never do).
 */
export const EntityId = z
  .string({ error: 'Id is required' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Id must be 1–64 letters, digits, _ or -');
export type EntityId = z.infer<typeof EntityId>;

/**
 * A user id: the auth service makes them with `randomUUID()`. Routes that name a user take
 * only this shape, so a malformed id is 400 rather than an empty answer.
 */
export const UserId = z.uuid({ error: 'User id must be a UUID' });
export type UserId = z.infer<typeof UserId>;
