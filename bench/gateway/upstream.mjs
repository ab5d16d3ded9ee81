// The stand-in service of the gateway benchmark, used when the auth service cannot run:
// a service-kit app like every service (request id, access log, /readyz, the trusted
// context verified on /api) answering GET /api/user from memory. Started by run.mjs.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const {
  createHttpApp,
  createLogger,
  requireContext,
  contextOf,
  startServer,
} = require('@aict/service-kit');

const logger = createLogger('bench-upstream', { level: process.env.LOG_LEVEL ?? 'warn' });
const app = createHttpApp({
  service: 'bench-upstream',
  logger,
  routes: (a) => {
    a.get('/api/user', requireContext(process.env.CONTEXT_PUBLIC_KEY), (req, res) => {
      const ctx = contextOf(req);
      res.set('cache-control', 'no-store').json({
        id: ctx.uid,
        username: 'bench-user',
        email: 'bench-user@example.com',
        isSuperAdmin: ctx.sa,
        workspaceRoles: Object.entries(ctx.roles).map(([workspaceId, role]) => ({
          workspaceId: Number(workspaceId),
          role,
        })),
      });
    });
  },
});
const server = await startServer(app, { host: '127.0.0.1', port: Number(process.env.PORT) });
logger.warn({ url: server.url }, 'bench upstream listening');
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
