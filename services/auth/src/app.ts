import { createHash } from 'node:crypto';
import { Router } from 'express';
import {
  createHttpApp,
  createOutboxRelay,
  KeyedLock,
  createProcessedStore,
  ensureIndexes,
  routeMounter,
  type ServiceDeps,
} from '@aict/service-kit';
import type { Config } from './config';
import { apiTokenModel } from './data/api-token.model';
import { apiTokenRepository } from './data/api-token.repository';
import { auditModels } from './data/audit.model';
import { auditRepository } from './data/audit.repository';
import { attemptSlotModel } from './data/attempt-slot.model';
import { attemptSlotRepository } from './data/attempt-slot.repository';
import { claimModels } from './data/claim.model';
import { claimKey, claimRepository, type ClaimHolderCheck } from './data/claim.repository';
import { membershipModels } from './data/membership.model';
import { membershipRepository } from './data/membership.repository';
import { revokedSessionModel } from './data/revoked-session.model';
import { revokedSessionRepository } from './data/revoked-session.repository';
import { ssoIdentityModel } from './data/sso-identity.model';
import { ssoIdentityRepository } from './data/sso-identity.repository';
import { userModel } from './data/user.model';
import { userRepository } from './data/user.repository';
import type { AuthDeps } from './domain/auth-deps';
import { documentKey } from './domain/keyed-lock';
import { rateLimiter } from './domain/rate-limiter';
import { seedSuperAdmin } from './domain/seed-super-admin';
import { sessionTokens } from './domain/session-tokens';
import { applyAuditRetention } from './domain/audit-log';
import { consumeAuditRecorded } from './events/audit-recorded.consumer';
import { consumeMembershipChanged } from './events/membership-changed.consumer';
import { consumeWorkspaceDeleted } from './events/workspace-deleted.consumer';
import { startMembershipReconciliation } from './jobs/reconcile-memberships.job';
import { auditRoutes } from './routes/audit.routes';
import { apiTokenRoutes } from './routes/api-tokens.routes';
import { oidcRoutes } from './routes/oidc.routes';
import { sessionRoutes } from './routes/session.routes';
import { userRoutes } from './routes/users.routes';
import { serveApiTokenVerify } from './rpc/api-token-verify.responder';
import { serveIdentitySnapshot } from './rpc/identity-snapshot.responder';
import { oidcClient } from './rpc/oidc.client';
import { workspaceClient } from './rpc/workspace.client';

export interface AppDeps extends ServiceDeps {
  config: Readonly<Config>;
}

/** Revocations of tokens expired this long ago are forgotten, once an hour. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * The auth service: users, passwords, sessions, the super-admin seed, user administration,
 * the memberships read model and the gateways' identity snapshot (docs/adr/0001).
 */
export async function createApp(deps: AppDeps) {
  const { config, logger, mongo, bus, readiness, onStop } = deps;
  if (!mongo || !bus) throw new Error('the auth service needs MongoDB and RabbitMQ');

  const User = userModel(mongo);
  const RevokedSession = revokedSessionModel(mongo);
  const ApiToken = apiTokenModel(mongo);
  const users = userRepository(User);
  const sessions = revokedSessionRepository(RevokedSession);
  const holds: ClaimHolderCheck = async (kind, key, userId) => {
    const user = await users.findById(userId);
    return user !== null && claimKey(user[kind]) === key;
  };
  const relay = createOutboxRelay({ bus, logger, fullSweepMs: config.OUTBOX_SWEEP_MS });
  const audit = auditRepository(auditModels(mongo));
  const locks = new KeyedLock();
  const limiter = rateLimiter(
    attemptSlotRepository(attemptSlotModel(mongo)),
    config.RATE_LIMIT_WINDOW_SECONDS,
  );
  const auth: AuthDeps = {
    users,
    sessions,
    claims: claimRepository(claimModels(mongo), holds),
    memberships: membershipRepository(membershipModels(mongo)),
    apiTokens: apiTokenRepository(ApiToken),
    audit,
    tokens: sessionTokens(config.JWT_PRIVATE_KEY, config.SESSION_TTL_SECONDS),
    limiter,
    limits: {
      perIp: config.RATE_LIMIT_MAX_PER_IP,
      perUsername: config.RATE_LIMIT_MAX_PER_USERNAME,
    },
    events: {
      envelope: (type, data) => bus.envelope(type, data),
      publishSoon: (model, id) => {
        locks
          .run(documentKey(model.collection.collectionName, id), () => relay.flush(model, id))
          .catch((err: unknown) =>
            logger.warn({ err, id }, 'outbox flush failed; the sweep will retry'),
          );
      },
      publishNow: (envelope) => bus.publishEnvelopes([envelope]),
    },
    workspace: workspaceClient(bus),
    locks,
    logger,
    sso: ssoOf(config, mongo),
  };
  await ensureIndexes(mongo);

  // Shutdown runs these in order, before the bus closes: stop taking messages, then let
  // the outbox relay finish what it is publishing.
  const processed = createProcessedStore(mongo);
  const consumers = [
    await consumeMembershipChanged(bus, processed, auth),
    await consumeWorkspaceDeleted(bus, processed, auth),
    await serveIdentitySnapshot(bus, auth),
    await serveApiTokenVerify(bus, auth),
    await consumeAuditRecorded(bus, audit),
  ];
  // Subscribed first, so nothing published after the snapshot is missed.
  const reconciliation = startMembershipReconciliation(auth, logger);
  onStop('consumers', async () => {
    await reconciliation.stop();
    await Promise.all(consumers.map((consumer) => consumer.close()));
  });
  relay.watch(User);
  relay.watch(RevokedSession);
  relay.watch(ApiToken);
  onStop('outbox relay', () => relay.close());
  const purge = setInterval(() => {
    sessions
      .purgeExpired(new Date(Date.now() - PURGE_EVERY_MS))
      .catch((err: unknown) => logger.warn({ err }, 'could not purge expired revocations'));
  }, PURGE_EVERY_MS);
  purge.unref();
  onStop('purge', () => clearInterval(purge));
  // Rate-limit slots of ended windows, once a window (or a minute at least).
  const purgeSlots = setInterval(
    () => {
      limiter
        .purge()
        .catch((err: unknown) => logger.warn({ err }, 'could not purge rate-limit slots'));
    },
    Math.max(60, config.RATE_LIMIT_WINDOW_SECONDS) * 1000,
  );
  purgeSlots.unref();
  onStop('purge rate-limit slots', () => clearInterval(purgeSlots));
  if (config.AUDIT_RETENTION_DAYS > 0) {
    const retention = setInterval(() => {
      applyAuditRetention(audit, config.AUDIT_RETENTION_DAYS).catch((err: unknown) =>
        logger.warn({ err }, 'could not apply the audit retention'),
      );
    }, PURGE_EVERY_MS);
    retention.unref();
    onStop('audit retention', () => clearInterval(retention));
  }

  const { SUPERADMIN_USERNAME, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD } = config;
  if (SUPERADMIN_USERNAME && SUPERADMIN_EMAIL && SUPERADMIN_PASSWORD) {
    await seedSuperAdmin(auth, {
      username: SUPERADMIN_USERNAME,
      email: SUPERADMIN_EMAIL,
      password: SUPERADMIN_PASSWORD,
    });
  }

  const secureCookies = config.NODE_ENV === 'production';
  return createHttpApp({
    service: 'auth',
    logger,
    readiness,
    routes: (app) => {
      const router = Router();
      const mount = routeMounter(router, {
        service: 'auth',
        contextKey: config.CONTEXT_PUBLIC_KEY,
      });
      sessionRoutes(mount, auth, { secureCookies });
      userRoutes(mount, auth);
      oidcRoutes(mount, auth, {
        secureCookies,
        cookieKey: createHash('sha256')
          .update('aict-oidc-cookie\0')
          .update(config.JWT_PRIVATE_KEY)
          .digest(),
        appPath: config.OIDC_APP_PATH,
      });
      apiTokenRoutes(mount, auth);
      auditRoutes(mount, audit);
      app.use(router);
    },
  });
}

/** Single sign-on when the environment configures it (OIDC_*), else undefined. */
function ssoOf(config: Readonly<Config>, mongo: NonNullable<ServiceDeps['mongo']>) {
  const { OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI } = config;
  if (!OIDC_ISSUER_URL || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET || !OIDC_REDIRECT_URI) {
    return undefined;
  }
  return {
    client: oidcClient({
      issuerUrl: OIDC_ISSUER_URL,
      clientId: OIDC_CLIENT_ID,
      clientSecret: OIDC_CLIENT_SECRET,
      redirectUri: OIDC_REDIRECT_URI,
      scopes: config.OIDC_SCOPES,
      allowHttp: config.OIDC_ALLOW_HTTP,
    }),
    identities: ssoIdentityRepository(ssoIdentityModel(mongo)),
    rolesClaim: config.OIDC_ROLES_CLAIM,
    rolesPrefix: config.OIDC_ROLES_PREFIX,
    label: config.OIDC_BUTTON_LABEL,
    passwordLogin: config.OIDC_PASSWORD_LOGIN,
  };
}
