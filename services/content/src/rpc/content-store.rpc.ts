import { CONTENT_STORE_RPC, GeneratedContent } from '@aict/contracts';
import type { Served } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { storeContent } from '../domain/store-content';

/** Request/reply `content.store` (the generation service's fast path): the store use case. */
export function serveContentStore(d: DomainDeps): Promise<Served> {
  return d.bus.serve(CONTENT_STORE_RPC, GeneratedContent, (content) => storeContent(d, content));
}
