export { startProviderSim, type ProviderSim, type ProviderSimOptions } from './sim-server';
export { defaultKeyRule, type KeyRule, type SimControl } from './sim-state';
export {
  defaultSimConfig,
  failModes,
  type FailMode,
  type FailRule,
  type SimConfig,
  type SimConfigPatch,
} from './sim-config';
export type {
  ChatSummary,
  ImageRequestSummary,
  MessageSummary,
  PartSummary,
  ReceivedFile,
  RecordedRequest,
  RequestFilter,
} from './recorded-request';
export { SIM_MODELS } from './routes/models.routes';
export { colourFor } from './lib/image-bytes';
export { realmSafeFetch } from './lib/realm-safe-fetch';
