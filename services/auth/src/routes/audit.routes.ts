import type { KeyObject } from 'node:crypto';
import { Router } from 'express';
import { AUDIT_ROUTES as r } from '@aict/contracts';
import { contextOf, requireContext } from '@aict/service-kit';
import type { AuditRepository } from '../data/audit.repository';
import { exportAuditEntries, listAuditEntries, verifyAuditLog } from '../domain/audit-log';
import { userErrors } from '../domain/user.errors';
import { presentAuditCsv, presentAuditEntry } from '../presenters/audit.presenter';

/** The audit log (issue 17): read by admins, verified by the super admin. */
export function auditRoutes(audit: AuditRepository, { contextKey }: { contextKey: KeyObject }) {
  const router = Router();
  const signedIn = requireContext(contextKey);

  router.get(r.verify.path, signedIn, async (req, res) => {
    if (!contextOf(req).sa) throw userErrors.forbidden();
    res.set('cache-control', 'no-store').json(await verifyAuditLog(audit));
  });

  router.get(r.export.path, signedIn, async (req, res) => {
    const query = r.export.query.parse(req.query);
    const entries = await exportAuditEntries(audit, contextOf(req), query);
    res
      .type('text/csv; charset=utf-8')
      .attachment('audit.csv')
      .set('cache-control', 'no-store')
      .set('x-content-type-options', 'nosniff')
      .send(presentAuditCsv(entries));
  });

  router.get(r.list.path, signedIn, async (req, res) => {
    const query = r.list.query.parse(req.query);
    const page = await listAuditEntries(audit, contextOf(req), query);
    res
      .set('cache-control', 'no-store')
      .json({ entries: page.entries.map(presentAuditEntry), next: page.next });
  });

  return router;
}
