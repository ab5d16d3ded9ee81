export { createBus, busReadiness, describeAmqpUrl } from './bus';
export type { Bus, BusOptions, BusStatsSnapshot, PublishItem, Served, Subscription } from './bus';
export { buildEnvelope, decodeEnvelope, envelopeShape, eventsExchange } from './envelope';
export type {
  DecodeResult,
  Envelope,
  EnvelopeOptions,
  EventFrom,
  EventSchema,
  EventSchemas,
} from './envelope';
export type {
  Binding,
  DeliveryInfo,
  EventHandler,
  QueueType,
  SubscribeOptions,
  SubscriptionInfo,
} from './consumer';
export { rpcQueue } from './rpc';
export { DELIVERY_LIMIT, QUORUM_SUFFIX } from './consumer';
export type { RequestOptions, RpcContext, RpcHandler, RpcReply } from './rpc';
export type { BusStats } from './stats';
export { createProcessedStore, idempotent } from './idempotency';
export type { ProcessedStore, ProcessedStoreOptions } from './idempotency';
export {
  createOutboxRelay,
  live,
  notDeleted,
  outboxDelete,
  outboxInsert,
  outboxPlugin,
  outboxUpdate,
  DELETED_FIELD,
  OUTBOX_FIELD,
} from './outbox';
export type {
  OutboxModel,
  OutboxRelay,
  OutboxRelayOptions,
  SweepOptions,
  WatchOptions,
} from './outbox';
export { KeyedLock } from './keyed-lock';
export { createLockedOutbox, docKey } from './locked-outbox';
export type { LockedOutbox } from './locked-outbox';
