// Reaching an AI provider at a URL a user may have entered: no redirects, and optionally only
// public addresses (checked when the socket connects). Used by the workspace service's
// "Test Connection" and by the generation service.
export { isPrivateAddress } from './private-address';
export {
  createProviderFetch,
  isBlockedAddressError,
  type ProviderFetch,
  type ProviderFetchOptions,
} from './provider-fetch';
