import { API_TOKEN_VERIFY_RPC, ApiTokenVerifyReply } from '@aict/contracts';
import { runService, type RunServiceOptions } from '@aict/service-kit';
import { createApp } from './app';
import { configSchema } from './config';
import { IdentityState } from './identity/identity-state';
import { IdentitySync } from './identity/identity-sync';

type Options = Pick<RunServiceOptions<typeof configSchema>, 'env' | 'exit' | 'logDestination'>;

export function start(options: Options = {}) {
  return runService({
    name: 'gateway',
    configSchema,
    ...options,
    // Slow clients: headers within CLIENT_HEADERS_TIMEOUT_MS; bodies are guarded by the proxy
    // (request-limits.ts), with Node's whole-request timeout behind it.
    server: (config) => ({
      headersTimeoutMs: config.CLIENT_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: config.CLIENT_HEADERS_TIMEOUT_MS + config.CLIENT_BODY_TIMEOUT_MS + 5_000,
      connectionsCheckingIntervalMs: Math.min(
        5_000,
        Math.ceil(config.CLIENT_HEADERS_TIMEOUT_MS / 4),
      ),
    }),
    start: async (config, deps) => {
      const { bus } = deps;
      if (!bus) throw new Error('the gateway needs RabbitMQ (AMQP_URL)');
      const identity = new IdentityState();
      const sync = new IdentitySync({ bus, state: identity, logger: deps.logger });
      // Ready only once the snapshots are loaded (and while the bus is connected).
      deps.readiness.push(sync.readiness());
      deps.onStop('identity-sync', () => sync.stop());
      await sync.start();
      return createApp({
        ...deps,
        config,
        identity,
        onIdentityEvents: (events) => events.forEach((event) => sync.receive(event)),
        apiTokenLookup: async (hash) => {
          const reply = await bus.request(
            API_TOKEN_VERIFY_RPC,
            { hash },
            { timeoutMs: 5_000, schema: ApiTokenVerifyReply },
          );
          return reply.token;
        },
      });
    },
  });
}

if (require.main === module) void start().catch(() => process.exit(1));
