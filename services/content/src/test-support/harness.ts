import { randomBytes, randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import {
  CONTENT_STORE_RPC,
  ContentStoreReply,
  generatedImageUrl,
  type GeneratedContent,
} from '@aict/contracts';
import type { Bus, Envelope } from '@aict/service-kit';
import { startServiceHarness, type Call } from '@aict/service-kit/testing';
import { createDomain } from '../app';
import { pendingStoreId } from '../data/collections';
import { ownerKeyOf } from '../data/layout';
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
  vhostUrl: string;
  env: Record<string, string | undefined>;
  db: Connection;
  /** The use cases over the service's own database and bus (repairs in tests). */
  domain: DomainDeps;
  /** The use cases of another process of the service: its own caches, over `mongo`. */
  processOn(mongo: Connection): DomainDeps;
  /** Publishes as the workspace service does (`aict.workspace.events`). */
  workspaceBus: Bus;
  /** Publishes and requests as the generation service does. */
  generationBus: Bus;
  call: Call;
  /** content.store, as the generation service asks it. */
  store(content: GeneratedContent): Promise<ContentStoreReply>;
  /** Every event the service publishes from now on, as received on RabbitMQ. */
  events: Envelope[];
  stop(): Promise<void>;
}

let clock = Date.now() - 1_000_000;

/** A finished text generation (ids fresh, times increasing), with overrides. */
export function buildContent(overrides: Partial<GeneratedContent> = {}): GeneratedContent {
  const id = overrides.id ?? randomUUID();
  clock += 1000;
  return {
    id,
    workspaceId: 1,
    userId: 'u-owner',
    title: `Title ${randomBytes(3).toString('hex')}`,
    content: 'Some generated text that is long enough to be cut for the preview of the history.',
    contentType: 'text',
    model: 'gpt-4o',
    language: 'en',
    promptId: null,
    parentId: null,
    threadId: id,
    metadata: { inputs: { message: 'Hello' }, usage: { promptTokens: 10, completionTokens: 20 } },
    usage: { promptTokens: 10, completionTokens: 20, images: 0 },
    createdAt: new Date(clock).toISOString(),
    ...overrides,
  };
}

export function buildImage(overrides: Partial<GeneratedContent> = {}): GeneratedContent {
  const id = overrides.id ?? randomUUID();
  const ws = overrides.workspaceId === undefined ? 1 : overrides.workspaceId;
  return buildContent({
    id,
    contentType: 'image',
    model: 'dall-e-3',
    content: generatedImageUrl(id, ws),
    metadata: { inputs: { subject: 'a cat' } },
    usage: { promptTokens: 0, completionTokens: 0, images: 1 },
    ...overrides,
  });
}

/**
 * Starts the content service on the real FerretDB and RabbitMQ (a vhost of its own), with
 * its own database, and helpers to call it as the gateway and the generation service would.
 */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const h = await startServiceHarness({ name: 'content', start, env: overrides });
  const workspaceBus = await h.busAs('workspace');
  const generationBus = await h.busAs('generation');
  const domain = createDomain({ ...h.service.deps, config: h.service.config });
  return {
    ...h,
    async stop() {
      await domain.indexer.stop();
      await h.stop();
    },
    domain,
    processOn: (mongo) => createDomain({ ...h.service.deps, mongo, config: h.service.config }),
    workspaceBus,
    generationBus,
    store(content) {
      return generationBus.request(CONTENT_STORE_RPC, content, { schema: ContentStoreReply });
    },
  };
}

/**
 * The pending write a store leaves when its process stops before removing it (a minute old,
 * so the repair takes it): the content and the `content.created` event it publishes.
 */
export function pendingLeftBehind(content: GeneratedContent, event: unknown) {
  return {
    _id: pendingStoreId(content.id),
    op: 'store',
    key: ownerKeyOf(content.workspaceId, content.userId),
    at: new Date(Date.now() - 60_000),
    content: JSON.stringify(content),
    event,
  };
}
