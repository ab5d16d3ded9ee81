import type { AuditEntry, AuditSummary } from '@aict/contracts';
import type { AuditEntryRecord } from '../data/audit.model';

/** The only place an audit entry becomes a response. */
export function presentAuditEntry(entry: AuditEntryRecord): AuditEntry {
  return {
    seq: entry.seq,
    at: new Date(entry.at).toISOString(),
    actorId: entry.actorId,
    actorName: entry.actorName,
    workspaceId: entry.workspaceId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before,
    after: entry.after,
    clientAddress: entry.clientAddress,
    requestId: entry.requestId,
    hash: entry.hash,
    prevHash: entry.prevHash,
  };
}

const CSV_COLUMNS = [
  'seq',
  'at',
  'actorId',
  'actorName',
  'workspaceId',
  'action',
  'targetType',
  'targetId',
  'before',
  'after',
  'clientAddress',
  'requestId',
  'hash',
] as const;

const summaryText = (summary: AuditSummary | null) =>
  summary === null ? '' : JSON.stringify(summary);

/** A cell as RFC 4180 wants it; a leading = + - @ is defused (spreadsheet formulas). */
function cell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function presentAuditCsv(entries: readonly AuditEntryRecord[]): string {
  const rows = entries.map((entry) => {
    const shown = presentAuditEntry(entry);
    return CSV_COLUMNS.map((column) =>
      cell(column === 'before' || column === 'after' ? summaryText(shown[column]) : shown[column]),
    ).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
