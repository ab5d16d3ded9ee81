import {
  PROMPT_COUNT_RPC,
  PROMPT_FOR_GENERATION_RPC,
  PROMPT_FOR_RESULTS_RPC,
  PromptCountRequest,
  PromptForGenerationRequest,
  PromptForResultsRequest,
  type PromptForGenerationReply,
  type TrustedContext,
} from '@aict/contracts';
import { AppError, roleIn, type Served } from '@aict/service-kit';
import { countPrompts } from '../domain/count-prompts';
import type { DomainDeps } from '../domain/domain-deps';
import { promptForGeneration } from '../domain/prompt-for-generation';
import { promptForResults } from '../domain/prompt-for-results';
import { workspaceForbidden } from '../domain/prompt.errors';
import { presentForGeneration } from '../presenters/prompt.presenter';

/**
 * What `requireContext` and the gateway decide for an HTTP request, for a context forwarded
 * over RabbitMQ: a signed-out context is 401; a workspace the caller is not a member of
 * (the one named or the context's) is 403 WORKSPACE.FORBIDDEN, the gateway's answer to the
 * same request, so the calling service can pass the error on as it is.
 */
function assertMayAsk(ctx: TrustedContext, workspaceId: number | null): void {
  if (!ctx.uid) throw AppError.unauthorized();
  for (const id of [workspaceId, ctx.ws])
    if (id !== null && roleIn(ctx, id) === null) throw workspaceForbidden();
}

/**
 * The request/reply endpoints this service answers on RabbitMQ. Like a route: the payload is
 * validated against the contracts (400 VALIDATION.FAILED), the forwarded context is checked,
 * then the use case answers. Errors go back as `{code, status, message}` (bus.serve), and the
 * caller's `bus.request` rejects with the same AppError.
 */
export function serveRequests(d: DomainDeps): Promise<Served[]> {
  return Promise.all([
    // The generation service: the prompt to run, with its template and reference images.
    d.bus.serve(
      PROMPT_FOR_GENERATION_RPC,
      PromptForGenerationRequest,
      async ({ ctx, promptId, workspaceId }): Promise<PromptForGenerationReply> => {
        assertMayAsk(ctx, workspaceId);
        const found = await promptForGeneration(d, ctx, promptId, workspaceId);
        if (!found.found) return { found: false };
        const prompt = presentForGeneration(found.record, found.images, d.storage.bucket);
        return { found: true, prompt };
      },
    ),

    // The content service (GET /api/prompts/:id/results): whether the caller may see the
    // prompt's results, and in which workspace they are kept.
    d.bus.serve(
      PROMPT_FOR_RESULTS_RPC,
      PromptForResultsRequest,
      ({ ctx, promptId, workspaceId }) => {
        assertMayAsk(ctx, workspaceId);
        return promptForResults(d, ctx, promptId, workspaceId);
      },
    ),

    // The content service (GET /api/stats): the number of prompts the prompt list shows.
    d.bus.serve(PROMPT_COUNT_RPC, PromptCountRequest, ({ ctx, workspaceId }) => {
      assertMayAsk(ctx, workspaceId);
      return countPrompts(d, ctx, workspaceId);
    }),
  ]);
}
