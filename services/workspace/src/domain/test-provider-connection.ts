import OpenAI from 'openai';
import type { ProviderConfig, TestConnectionResponse, TrustedContext } from '@aict/contracts';
import { assertSuperAdmin } from '@aict/service-kit';
import { isBlockedAddressError } from '@aict/service-kit';
import { authorizeAdmin } from './authorize';
import type { DomainDeps } from './domain-deps';
import { resolveProviderConfig } from './resolve-provider-config';

const KEY_SOURCE = { workspace: "the workspace's API key", global: 'the global API key' };

/**
 * "Test Connection": lists the provider's models with the key and base URL that apply
 * (the workspace's, else the global ones) and says plainly what went wrong. The answer is
 * always `{ success, message }`; the key appears in no answer and no log.
 */
export async function testProviderConnection(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number | null,
): Promise<TestConnectionResponse> {
  if (workspaceId === null) assertSuperAdmin(ctx);
  else await authorizeAdmin(d, ctx, workspaceId);

  const config = await resolveProviderConfig(d, workspaceId);
  if (!config.apiKey || !config.keySource) {
    return {
      success: false,
      message:
        workspaceId === null
          ? 'No global API key is configured. Save an API key first.'
          : 'No API key is configured for this workspace or globally. Save an API key first.',
    };
  }

  const result = await listModels(d, config);
  d.logger.info(
    {
      workspaceId,
      keySource: config.keySource,
      baseUrlSource: config.baseUrlSource,
      success: result.success,
    },
    'provider connection tested',
  );
  if (!result.success) return result;
  return { success: true, message: `${result.message} (using ${KEY_SOURCE[config.keySource]}).` };
}

async function listModels(d: DomainDeps, config: ProviderConfig): Promise<TestConnectionResponse> {
  // The operator's OPENAI_BASE_URL goes anywhere; a saved one through the guard (allow-list).
  const trusted = config.baseUrlSource === 'environment';
  const timeoutMs = d.config.PROVIDER_TEST_TIMEOUT_MS;
  const client = new OpenAI({
    apiKey: config.apiKey!,
    baseURL: config.baseUrl,
    organization: null,
    project: null,
    timeout: timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
    fetch: (trusted ? d.trustedProviderFetch : d.providerFetch).fetch,
  });
  const where = originOf(config.baseUrl);
  try {
    const page = await client.models.list();
    const count = page.data.length;
    return {
      success: true,
      message: `Connection successful: the AI provider at ${where} answered with ${count} model${count === 1 ? '' : 's'}`,
    };
  } catch (err) {
    return { success: false, message: describeFailure(err, where, timeoutMs) };
  }
}

function describeFailure(err: unknown, where: string, timeoutMs: number): string {
  if (err instanceof OpenAI.AuthenticationError)
    return 'The AI provider rejected the API key (401 Unauthorized). Check the key and save it again.';
  if (err instanceof OpenAI.PermissionDeniedError)
    return 'The API key is not allowed to list models (403 Forbidden).';
  if (err instanceof OpenAI.RateLimitError)
    return 'The AI provider is rate limiting this key or its quota is used up (429). Try again later.';
  if (err instanceof OpenAI.APIConnectionTimeoutError)
    return `The AI provider at ${where} did not answer within ${seconds(timeoutMs)}.`;
  if (err instanceof OpenAI.APIConnectionError) {
    if (isBlockedAddressError(err))
      return `The AI provider address ${where} resolves to a private, loopback or link-local address, which is not allowed.`;
    return `Could not reach the AI provider at ${where}. Check the base URL and the network.`;
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    if (err.status >= 300 && err.status < 400)
      return `The AI provider at ${where} answered with a redirect (${err.status}), which is not followed. Check the base URL.`;
    if (err.status === 404)
      return `The AI provider at ${where} has no models endpoint (404). Check the base URL.`;
    return `The AI provider at ${where} answered with an error (${err.status}).`;
  }
  return `The connection test to ${where} failed.`;
}

function seconds(ms: number): string {
  const value = Math.round(ms / 100) / 10;
  return `${value} second${value === 1 ? '' : 's'}`;
}

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return 'the configured address';
  }
}
