// A tiny service for the OTLP export test, run in a child process (real Node, where the
// exporter's dynamic imports work): GET /api/whoami/:id answers with its request id.
import { currentRequestId } from '../context';
import { httpEnv } from '../config';
import { createHttpApp } from '../http/app';
import { runService } from '../service';

void runService({
  name: 'traced-service',
  configSchema: httpEnv,
  start: (_config, { logger, readiness }) =>
    createHttpApp({
      service: 'traced-service',
      logger,
      readiness,
      routes: (app) => {
        app.get('/api/whoami/:id', (_req, res) => {
          logger.info('who am i');
          res.json({ requestId: currentRequestId() });
        });
      },
    }),
}).catch(() => undefined);
