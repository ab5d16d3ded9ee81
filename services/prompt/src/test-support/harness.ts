import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { Bus, Envelope } from '@aict/service-kit';
import { startServiceHarness, type Call } from '@aict/service-kit/testing';
import { createDomain } from '../app';
import type { DomainDeps } from '../domain/domain-deps';
import { start } from '../main';

export {
  adminOf,
  member,
  newWorkspaceId,
  sleep,
  superAdmin,
  userOf,
  waitFor,
  type Caller,
  type CallOptions,
  type CallResult,
} from '@aict/service-kit/testing';

export interface Harness {
  url: string;
  env: Record<string, string | undefined>;
  /** The service's own database, for reading and writing raw documents. */
  db: Connection;
  /** The use cases over the service's own database, bucket and bus (repairs in tests). */
  domain: DomainDeps;
  /** A bus publishing as the workspace service does (`aict.workspace.events`). */
  workspaceBus: Bus;
  service: Awaited<ReturnType<typeof start>>;
  call: Call;
  /** Every event the service publishes from now on, as received on RabbitMQ. */
  events: Envelope[];
  waitForEvent(match: (e: Envelope) => boolean, what?: string): Promise<Envelope>;
  stop(): Promise<void>;
}

/** A valid create-prompt body, with overrides. */
export function buildPrompt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Prompt ${randomBytes(3).toString('hex')}`,
    description: 'Writes product copy',
    template: 'Describe {product} for {audience} in {language}.',
    category: 'Marketing',
    contentType: 'text',
    model: 'gpt-4o',
    isPublic: false,
    isDefault: false,
    ...overrides,
  };
}

/** An image prompt that takes reference images (gpt-image-1). */
export const buildImagePrompt = (overrides: Record<string, unknown> = {}) =>
  buildPrompt({
    template: 'A poster of {subject} in the style of {file}',
    contentType: 'image',
    model: 'gpt-image-1',
    ...overrides,
  });

/**
 * Starts the prompt service on the real FerretDB, RabbitMQ (a vhost of its own) and MinIO,
 * with its own database and bucket, and helpers to call it as the gateway would.
 */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const h = await startServiceHarness({ name: 'prompt', start, env: overrides });
  const workspaceBus = await h.busAs('workspace');
  const domain = createDomain({ ...h.service.deps, config: h.service.config });
  return {
    ...h,
    domain,
    workspaceBus,
    async stop() {
      await domain.relay.close();
      await h.stop();
    },
  };
}
