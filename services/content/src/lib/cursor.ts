import { z } from 'zod';
import { invalidCursor } from '../domain/content.errors';

/** Where a page of results ended: the page number and the sort key of its last item. */
export interface Cursor {
  p: number;
  t: number;
  i: string;
}

const CursorShape = z.object({
  p: z.number().int().nonnegative(),
  t: z.number().int(),
  i: z.string().min(1).max(64),
});

/** Opaque to clients: base64url of the JSON. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(text: string | undefined): Cursor | null {
  if (text === undefined) return null;
  try {
    return CursorShape.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalidCursor();
  }
}
