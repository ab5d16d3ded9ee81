// A tiny service for the graceful-shutdown test: GET /slow answers after SLOW_MS;
// a registered stop step logs when it runs.
import { envInt, httpEnv } from '../config';
import { createHttpApp } from '../http/app';
import { runService } from '../service';

void runService({
  name: 'slow-service',
  configSchema: httpEnv.extend({ SLOW_MS: envInt({ min: 0 }).default(800) }),
  start: (config, { logger, readiness, onStop }) => {
    onStop('worker', async () => {
      await new Promise((r) => setTimeout(r, 50));
      logger.info('worker stopped');
    });
    return createHttpApp({
      service: 'slow-service',
      logger,
      readiness,
      routes: (app) => {
        app.get('/slow', async (_req, res) => {
          logger.info('slow request started');
          await new Promise((r) => setTimeout(r, config.SLOW_MS));
          res.json({ finished: true });
        });
      },
    });
  },
}).catch(() => undefined);
