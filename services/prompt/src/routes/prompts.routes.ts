import { PROMPT_ROUTES } from '@aict/contracts';
import type { MountRoute } from '@aict/service-kit';
import { createPrompt } from '../domain/create-prompt';
import { getDefaultPrompt } from '../domain/default-prompt';
import { deletePrompt } from '../domain/delete-prompt';
import type { DomainDeps } from '../domain/domain-deps';
import { getPrompt } from '../domain/get-prompt';
import { listPrompts } from '../domain/list-prompts';
import { listVersions, restoreVersion } from '../domain/prompt-versions';
import { updatePrompt } from '../domain/update-prompt';
import { presentPrompt, presentSummary, presentVersion } from '../presenters/prompt.presenter';

/**
 * Prompt routes of SPEC §7, mounted from their definitions (PROMPT_ROUTES): the input is
 * validated and the workspace in view authorised by the mount; each route runs its use case
 * and presents the result.
 */
export function promptRoutes(mount: MountRoute, d: DomainDeps): void {
  mount(PROMPT_ROUTES.list, async ({ ctx, query }) => {
    const entries = await listPrompts(d, ctx, query);
    return entries.map(({ entry, isDefault }) => presentSummary(ctx, entry, isDefault));
  });

  mount(PROMPT_ROUTES.getDefault, ({ ctx, query }) => getDefaultPrompt(d, ctx, query.workspaceId));

  mount(PROMPT_ROUTES.get, async ({ ctx, params, workspaceId }) =>
    presentPrompt(ctx, await getPrompt(d, ctx, params.id, workspaceId)),
  );

  mount(PROMPT_ROUTES.create, async ({ ctx, body, workspaceId }) =>
    presentPrompt(ctx, await createPrompt(d, ctx, body, workspaceId)),
  );

  mount(PROMPT_ROUTES.update, async ({ ctx, params, body, workspaceId }) =>
    presentPrompt(ctx, await updatePrompt(d, ctx, params.id, body, workspaceId)),
  );

  mount(PROMPT_ROUTES.versions, async ({ ctx, params, workspaceId }) => {
    const listed = await listVersions(d, ctx, params.id, workspaceId);
    return { current: listed.current, versions: listed.versions.map(presentVersion) };
  });

  mount(PROMPT_ROUTES.restoreVersion, async ({ ctx, params, body, workspaceId }) => {
    const { id, version } = params;
    const prompt = await restoreVersion(d, ctx, id, version, body.currentVersion, workspaceId);
    return presentPrompt(ctx, prompt);
  });

  mount(PROMPT_ROUTES.remove, ({ ctx, params, workspaceId }) =>
    deletePrompt(d, ctx, params.id, workspaceId),
  );
}
