// Reaching an AI provider at a URL a user may have entered: no redirects, and only public
// addresses (checked when saved and again when the socket connects) unless the URL's origin
// is allowed (PROVIDER_URL_ALLOWED_ORIGINS). The one guard of the workspace service's
// "Test Connection" and of the generation service.
export { isPrivateAddress } from './private-address';
export {
  createProviderFetch,
  isBlockedAddressError,
  type ProviderFetch,
  type ProviderFetchOptions,
} from './provider-fetch';
export {
  assertProviderBaseUrl,
  isAllowedOrigin,
  type ProviderUrlPolicy,
} from './provider-url-policy';
// PROVIDER_URL_ALLOWED_ORIGINS is read by `providerUrlEnv` (../config.ts).
