import { STORAGE_KEYS } from '@aict/contracts/constants';

// localStorage may be unavailable (privacy mode, sandboxed frame): reads give null, writes
// are dropped.

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Stores `value`, or removes the key when it is null. */
export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // storage unavailable: the value lives only in memory
  }
}

/** The stored current workspace id (SPEC §3 key `currentWorkspaceId`), as stored. */
export function readStoredWorkspaceId(): string | null {
  return readStorage(STORAGE_KEYS.currentWorkspaceId);
}
