import type { Logger } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { reconcileMemberships } from '../domain/reconcile-memberships';

export interface ReconcileJobOptions {
  /** First pause after a failed attempt; doubles up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Attempts before giving up (the events keep the read model current meanwhile). */
  maxAttempts?: number;
}

/**
 * At start-up, in the background (the auth service never waits for the workspace service):
 * repairs the memberships read model from the workspace service's snapshot, retrying while
 * the workspace service is not there yet.
 */
export function startMembershipReconciliation(
  deps: Pick<AuthDeps, 'memberships' | 'locks' | 'workspace'>,
  logger: Logger,
  options: ReconcileJobOptions = {},
) {
  const { initialDelayMs = 1_000, maxDelayMs = 30_000, maxAttempts = 20 } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const attempt = (n: number, delay: number) => {
    running = reconcileMemberships(deps)
      .then(({ changed }) => logger.info({ changed, attempts: n }, 'memberships reconciled'))
      .catch((err: unknown) => {
        if (stopped) return;
        const message = (err as Error).message;
        if (n >= maxAttempts) {
          logger.warn({ err: { message }, attempts: n }, 'memberships not reconciled; giving up');
          return;
        }
        logger.info(
          { err: { message }, attempt: n, retryInMs: delay },
          'memberships snapshot not available yet',
        );
        timer = setTimeout(() => attempt(n + 1, Math.min(delay * 2, maxDelayMs)), delay);
        timer.unref();
      });
  };
  attempt(1, initialDelayMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
