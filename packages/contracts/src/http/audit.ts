import { z } from 'zod';
import { AuditSummary } from '../events';
import { EntityId, WorkspaceId } from '../ids';
import { IsoDateTime } from '../primitives';
import { FILE_RESPONSE, OptionalWorkspaceQuery, type RouteDef } from './route';

/**
 * The audit log (issue 17): every administrative act, append-only, each entry carrying the
 * hash of the one before it (one global chain), so a changed or removed entry is found by
 * verify. Workspace admins read their workspace's entries, the super admin all.
 */

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 200;
/** Rows in one CSV export at most (newest first). */
export const AUDIT_EXPORT_MAX = 10_000;

export const AuditEntry = z.object({
  /** Position in the chain (1, 2, …): the paging cursor. */
  seq: z.number().int().min(1),
  at: IsoDateTime,
  actorId: EntityId.nullable(),
  actorName: z.string().nullable(),
  workspaceId: WorkspaceId.nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: AuditSummary.nullable(),
  after: AuditSummary.nullable(),
  clientAddress: z.string().nullable(),
  requestId: z.string(),
  hash: z.string(),
  prevHash: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const Filter = z.string().trim().max(200).optional();
const DateBound = z.union([IsoDateTime, z.iso.date()], { error: 'Use a date (YYYY-MM-DD)' });

/**
 * Whose entries: `platform` (the super admin only) every entry, sign-ins and other acts tied
 * to no workspace included, whatever workspace is in view; otherwise one workspace's (the
 * named one, else the one in view) or, for the super admin without one, every entry.
 */
export const AuditScope = z.enum(['workspace', 'platform']);
export type AuditScope = z.infer<typeof AuditScope>;

export const AuditQuery = OptionalWorkspaceQuery.extend({
  scope: AuditScope.optional(),
  actor: Filter,
  action: Filter,
  target: Filter,
  from: DateBound.optional(),
  to: DateBound.optional(),
  /** Entries before this position (the previous page's `next`). */
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_SIZE),
});
export type AuditQuery = z.input<typeof AuditQuery>;

export const AuditPage = z.object({
  entries: z.array(AuditEntry),
  /** The cursor of the next (older) page, null at the end. */
  next: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;

export const AuditVerifyResult = z.object({
  ok: z.boolean(),
  /** Entries checked (from the anchor, or the first entry, to the newest). */
  checked: z.number().int().min(0),
  /** The position the kept entries start after (entries up to it went by retention). */
  anchor: z.number().int().min(0),
  /** The first broken link, when there is one. */
  broken: z.object({ seq: z.number().int(), reason: z.string() }).nullable(),
});
export type AuditVerifyResult = z.infer<typeof AuditVerifyResult>;

export const AUDIT_ROUTES = {
  /** Workspace admins: `workspaceId` required (one they administer); the super admin: any or none. */
  list: {
    method: 'GET',
    path: '/api/audit',
    service: 'auth',
    access: 'signed-in',
    workspaceByUseCase: true,
    query: AuditQuery,
    response: AuditPage,
  },
  /** The same filters as CSV (text/csv), newest first. */
  export: {
    method: 'GET',
    path: '/api/audit/export',
    service: 'auth',
    access: 'signed-in',
    workspaceByUseCase: true,
    query: AuditQuery,
    response: FILE_RESPONSE,
  },
  verify: {
    method: 'GET',
    path: '/api/audit/verify',
    service: 'auth',
    access: 'super-admin',
    response: AuditVerifyResult,
  },
} as const satisfies Record<string, RouteDef>;
