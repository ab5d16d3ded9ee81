import mongoose from 'mongoose';
import { auditModels } from './data/audit.model';
import { auditRepository } from './data/audit.repository';
import { verifyAuditLog } from './domain/audit-log';

/**
 * `npm run audit:verify -w @aict/auth-service` (after a build; MONGO_URL as the service
 * has it): checks the audit log's hash chain, prints the result as JSON and exits 1 at the
 * first broken link.
 */
async function main(): Promise<number> {
  const url = process.env.MONGO_URL;
  if (!url) {
    process.stderr.write('MONGO_URL is required\n');
    return 2;
  }
  const connection = await mongoose.createConnection(url).asPromise();
  try {
    const result = await verifyAuditLog(auditRepository(auditModels(connection)));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.ok ? 0 : 1;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`audit verify failed: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
