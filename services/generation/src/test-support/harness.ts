import { randomBytes, randomUUID } from 'node:crypto';
import { startProviderSim, type ProviderSim } from '@aict/provider-sim';
import {
  acquireSharedBrokerLock,
  callerOf,
  createTestVhost,
  dropTestDatabase,
  removeTestBucket,
  serviceTestEnv,
  superAdmin,
  type Call,
  type CallOptions,
  type CallResult,
  type Claims,
} from '@aict/service-kit/testing';
import { start } from '../main';

export {
  sleep,
  waitFor,
  type Claims as Caller,
  type CallOptions,
  type CallResult,
} from '@aict/service-kit/testing';

// The real workspace and prompt services, started in this process (their built dist/):
// the provider configuration and the prompts come from them over RabbitMQ, as in production.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const workspaceService = require('@aict/workspace-service') as { start: typeof start };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const promptService = require('@aict/prompt-service') as { start: typeof start };

type Service = Awaited<ReturnType<typeof start>>;

export interface Workspace {
  id: number;
  /** The workspace's own API key (unique: sim rules and request filters use it). */
  apiKey: string;
  admin: Claims;
  user: Claims;
}

export interface Harness {
  sim: ProviderSim;
  generation: Service;
  call: Call;
  callService(
    service: 'workspace' | 'prompt',
    method: string,
    path: string,
    options: CallOptions,
  ): Promise<CallResult>;
  newWorkspace(options?: { apiKey?: string | null }): Promise<Workspace>;
  newPrompt(ws: Workspace, overrides?: Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The generation service with the real workspace and prompt services on FerretDB, MinIO and
 * a RabbitMQ vhost of their own, and the provider simulator (the only stand-in).
 */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const releaseLock = await acquireSharedBrokerLock();
  const vhost = await createTestVhost('aict-generation');
  const sim = await startProviderSim({ config: { fillerTokens: 5 } });
  const envs = {
    workspace: serviceTestEnv('workspace', {
      AMQP_URL: vhost.url,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      OPENAI_BASE_URL: sim.url,
      // As in the local run: a workspace may name the simulator as its provider.
      PROVIDER_URL_ALLOWED_ORIGINS: sim.origin,
    }),
    prompt: serviceTestEnv('prompt', { AMQP_URL: vhost.url }),
    generation: serviceTestEnv('generation', {
      AMQP_URL: vhost.url,
      PROVIDER_TIMEOUT_MS: '1500',
      PROVIDER_MAX_RETRIES: '2',
      PROVIDER_MAX_RETRY_WAIT_MS: '3000',
      CONTENT_STORE_TIMEOUT_MS: '500',
      PROVIDER_URL_ALLOWED_ORIGINS: sim.origin,
      ...overrides,
    }),
  };
  const workspace = await workspaceService.start({ env: envs.workspace, exit: () => {} });
  const prompt = await promptService.start({ env: envs.prompt, exit: () => {} });
  const generation = await start({ env: envs.generation, exit: () => {} });
  const callers = {
    workspace: callerOf(workspace.http.url),
    prompt: callerOf(prompt.http.url),
  };

  const harness: Harness = {
    sim,
    generation,
    call: callerOf(generation.http.url),
    callService: (service, method, path, options) => callers[service](method, path, options),
    async newWorkspace({ apiKey = `sk-test-${randomBytes(6).toString('hex')}` } = {}) {
      const created = await harness.callService('workspace', 'POST', '/api/workspaces', {
        as: superAdmin(),
        body: { name: `Generation ${randomBytes(4).toString('hex')}` },
      });
      if (created.status !== 201) throw new Error(`workspace: ${created.status} ${created.text}`);
      const id = created.body.id as number;
      if (apiKey) {
        const saved = await harness.callService(
          'workspace',
          'PUT',
          `/api/workspaces/${id}/settings/openai_api_key`,
          { as: superAdmin(), body: { value: apiKey } },
        );
        if (saved.status !== 200) throw new Error(`key: ${saved.status} ${saved.text}`);
      }
      return {
        id,
        apiKey: apiKey ?? '',
        admin: { uid: `admin-${randomUUID()}`, sa: false, roles: { [id]: 'admin' }, ws: id },
        user: { uid: `user-${randomUUID()}`, sa: false, roles: { [id]: 'user' }, ws: id },
      };
    },
    async newPrompt(ws, overrides = {}) {
      const created = await harness.callService('prompt', 'POST', '/api/prompts', {
        as: ws.admin,
        body: {
          name: `Prompt ${randomBytes(3).toString('hex')}`,
          template: 'Write about {subject} in {language}.',
          category: 'Marketing',
          contentType: 'text',
          model: 'gpt-4o',
          isPublic: false,
          isDefault: false,
          workspaceId: ws.id,
          ...overrides,
        },
      });
      if (created.status !== 201) throw new Error(`prompt: ${created.status} ${created.text}`);
      return created.body.id as string;
    },
    async stop() {
      await generation.shutdown('test done');
      await prompt.shutdown('test done');
      await workspace.shutdown('test done');
      await sim.close();
      for (const service of [generation, prompt, workspace]) await removeTestBucket(service);
      // Their databases too: test runs on one machine would otherwise pile them up.
      for (const env of Object.values(envs)) await dropTestDatabase(env.MONGO_URL);
      await vhost.remove();
      releaseLock();
    },
  };
  return harness;
}

/** Server-sent events of a response body, parsed. */
export function parseEvents(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      return { event, data: JSON.parse(data) as unknown };
    });
}
