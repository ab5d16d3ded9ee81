import { AUDIT_ROUTES } from '@aict/contracts';
import { RESPONDED, type MountRoute } from '@aict/service-kit';
import type { AuditRepository } from '../data/audit.repository';
import { exportAuditEntries, listAuditEntries, verifyAuditLog } from '../domain/audit-log';
import { presentAuditCsv, presentAuditEntry } from '../presenters/audit.presenter';

/** The audit log (issue 17): read by admins, verified by the super admin. */
export function auditRoutes(mount: MountRoute, audit: AuditRepository): void {
  mount(AUDIT_ROUTES.verify, async ({ res }) => {
    res.set('cache-control', 'no-store');
    return verifyAuditLog(audit);
  });

  mount(AUDIT_ROUTES.export, async ({ res, ctx, query }) => {
    const entries = await exportAuditEntries(audit, ctx, query);
    res
      .type('text/csv; charset=utf-8')
      .attachment('audit.csv')
      .set('cache-control', 'no-store')
      .set('x-content-type-options', 'nosniff')
      .send(presentAuditCsv(entries));
    return RESPONDED;
  });

  mount(AUDIT_ROUTES.list, async ({ res, ctx, query }) => {
    const page = await listAuditEntries(audit, ctx, query);
    res.set('cache-control', 'no-store');
    return { entries: page.entries.map(presentAuditEntry), next: page.next };
  });
}
