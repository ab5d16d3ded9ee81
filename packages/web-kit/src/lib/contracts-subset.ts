// Two small SPEC §6 rules of @aict/contracts (its rules.ts) that web-kit and the shell need
// before any screen renders, copied on purpose.
//
// Constants need no copy: import them from '@aict/contracts/constants', the package's zod-free
// entry (shared under its own federation key, see rspack/index.mjs). The root entry
// '@aict/contracts' is a shared module too, and shared modules are not tree-shaken: one value
// import from it would load the whole package with zod (~35 KB gzip) on the shell's critical
// path; rules.ts is only reachable through it. contracts-subset.test.ts fails the moment a
// copy here answers differently from the original.
// Types are imported from @aict/contracts as usual (they cost nothing at run time).
import type { User } from '@aict/contracts';

/** An admin for interface purposes: a super admin, or role 'admin' in that workspace. */
export function isAdminOf(
  user: Pick<User, 'isSuperAdmin' | 'workspaceRoles'> | null | undefined,
  workspaceId: number | string | null | undefined,
): boolean {
  if (!user) return false;
  if (user.isSuperAdmin) return true;
  return workspaceId != null && user.workspaceRoles[String(workspaceId)] === 'admin';
}

/** First letters of up to two words, capitalised: 'jane doe' → 'JD', 'admin' → 'A'. */
export function initials(username: string): string {
  return username
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]?.toUpperCase() ?? '')
    .join('');
}
