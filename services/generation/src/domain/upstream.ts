import {
  PROMPT_FOR_GENERATION_RPC,
  PROVIDER_CONFIG_RPC,
  PromptForGenerationReply,
  ProviderConfig,
  type TrustedContext,
} from '@aict/contracts';
import type { DomainDeps } from './domain-deps';
import {
  keyMissing,
  promptNotFound,
  SELECT_A_WORKSPACE,
  workspaceRequired,
} from './generation.errors';

export type GenerationPrompt = Extract<PromptForGenerationReply, { found: true }>['prompt'];
export type KeyedProviderConfig = ProviderConfig & { apiKey: string };

/**
 * The workspace a provider call (or a stored file) is made in: the workspace in view, which is
 * required (400 before any write, wait or provider call). The global key is the fallback for
 * workspaces without a key of their own, never for a call without a workspace (decision of
 * 2026-11-24).
 */
export function requireWorkspace(
  workspaceId: number | null,
  message: string = SELECT_A_WORKSPACE.generating,
): number {
  if (workspaceId === null) throw workspaceRequired(message);
  return workspaceId;
}

/** The prompt with its template, as the prompt service lets this caller see it; else 404. */
export async function loadPrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  workspaceId: number | null,
): Promise<GenerationPrompt> {
  const ask = () =>
    d.bus.request(
      PROMPT_FOR_GENERATION_RPC,
      { ctx, promptId, workspaceId },
      { schema: PromptForGenerationReply, timeoutMs: 5_000 },
    );
  // With a workspace in view (the caller's membership checked here), who sees a prompt depends
  // on the prompt and that workspace only: the answer is kept per both (domain-deps `prompts`).
  const reply =
    workspaceId === null ? await ask() : await d.prompts.get(`${workspaceId}:${promptId}`, ask);
  if (!reply.found) throw promptNotFound();
  return reply.prompt;
}

/** Key, base URL and default models for the workspace; PROVIDER.KEY_MISSING without a key. */
export async function loadProviderConfig(
  d: DomainDeps,
  workspaceId: number,
): Promise<KeyedProviderConfig> {
  const config = await d.providerConfigs.get(workspaceId, () =>
    d.bus.request(
      PROVIDER_CONFIG_RPC,
      { workspaceId },
      { schema: ProviderConfig, timeoutMs: 5_000 },
    ),
  );
  if (!config.apiKey) throw keyMissing();
  return config as KeyedProviderConfig;
}
