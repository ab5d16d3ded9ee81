import { SESSION_STORAGE_KEYS } from '@aict/contracts/constants';
import type { ContinueRecord } from '@aict/contracts';
import { parseMetadata } from './content-rules';

// The saved continue-conversation record (SPEC §3): session storage, key
// SESSION_STORAGE_KEYS.continueConversation. Checked by hand (web-kit stays free of zod);
// continue-record.test.tsx compares the check with the contracts' ContinueRecord schema.

/** The stored record is not JSON or not a ContinueRecord (SPEC §8 'Fout bij laden gesprek'). */
export class ContinueRecordError extends Error {
  override readonly name = 'ContinueRecordError';
  constructor(cause?: unknown) {
    super('The saved conversation could not be read', { cause });
  }
}

const KEY = SESSION_STORAGE_KEYS.continueConversation;
const ENTITY_ID = /^[A-Za-z0-9_-]{1,64}$/;

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isOptional = (value: unknown, check: (v: unknown) => boolean) =>
  value === undefined || value === null || check(value);

/** A workspace id as the contracts read it: an integer ≥ 1, or a string of digits. */
function workspaceNumber(value: unknown): number | null {
  const number =
    typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 1 ? number : null;
}

/** A ContinueRecord from parsed JSON, or null when the value does not have its shape. */
export function toContinueRecord(value: unknown): ContinueRecord | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const ok =
    isText(v.contentId) &&
    ENTITY_ID.test(v.contentId) &&
    isText(v.contentTitle) &&
    isText(v.initialContent) &&
    isText(v.model) &&
    isOptional(v.promptId, (id) => isText(id) && ENTITY_ID.test(id)) &&
    isOptional(v.workspaceId, (id) => workspaceNumber(id) !== null);
  if (!ok) return null;
  return {
    contentId: v.contentId as string,
    contentTitle: v.contentTitle as string,
    initialContent: v.initialContent as string,
    model: v.model as string,
    promptId: v.promptId as string | null | undefined,
    workspaceId:
      v.workspaceId == null ? (v.workspaceId as null | undefined) : workspaceNumber(v.workspaceId),
    metadata: parseMetadata(v.metadata),
  };
}

/** The saved record, or null when none is saved. Throws ContinueRecordError when corrupt. */
export function readContinueRecord(): ContinueRecord | null {
  const raw = session()?.getItem(KEY) ?? null;
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw new ContinueRecordError(cause);
  }
  const record = toContinueRecord(parsed);
  if (!record) throw new ContinueRecordError();
  return record;
}

/** Saves the record for the next screen (the chat or text generation with continue=true). */
export function writeContinueRecord(record: ContinueRecord): void {
  try {
    session()?.setItem(KEY, JSON.stringify(record));
  } catch {
    // storage unavailable or full: continuing falls back to a fresh screen
  }
}

export function removeContinueRecord(): void {
  try {
    session()?.removeItem(KEY);
  } catch {
    // storage unavailable: nothing to remove
  }
}
