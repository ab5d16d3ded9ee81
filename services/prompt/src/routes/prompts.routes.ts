import type { RequestHandler, Router } from 'express';
import {
  CreatePromptBody,
  IdParams,
  ListPromptsQuery,
  PromptQuery,
  PromptVersionParams,
  RestorePromptVersionBody,
  UpdatePromptBody,
  WorkspaceQuery,
} from '@aict/contracts';
import { contextOf, jsonBody } from '@aict/service-kit';
import { createPrompt } from '../domain/create-prompt';
import { getDefaultPrompt } from '../domain/default-prompt';
import { deletePrompt } from '../domain/delete-prompt';
import type { DomainDeps } from '../domain/domain-deps';
import { getPrompt } from '../domain/get-prompt';
import { listPrompts } from '../domain/list-prompts';
import { listVersions, restoreVersion } from '../domain/prompt-versions';
import { updatePrompt } from '../domain/update-prompt';
import { bodyOf, headerWorkspaceOf, paramsOf, queryOf } from '../lib/request';
import { presentPrompt, presentSummary, presentVersion } from '../presenters/prompt.presenter';

/** Prompt routes of SPEC §7. Each: context → validate → use case → presenter. */
export function promptRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  router.get('/api/prompts', signedIn, async (req, res) => {
    const query = queryOf(ListPromptsQuery, req);
    const ctx = contextOf(req);
    const entries = await listPrompts(d, ctx, query, headerWorkspaceOf(req));
    res.json(entries.map(({ entry, isDefault }) => presentSummary(ctx, entry, isDefault)));
  });

  router.get('/api/prompts/default', signedIn, async (req, res) => {
    const { workspaceId } = queryOf(WorkspaceQuery, req);
    res.json(await getDefaultPrompt(d, contextOf(req), workspaceId, headerWorkspaceOf(req)));
  });

  router.get('/api/prompts/:id', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    const ctx = contextOf(req);
    const prompt = await getPrompt(d, ctx, id, [workspaceId, headerWorkspaceOf(req)]);
    res.json(presentPrompt(ctx, prompt));
  });

  router.post('/api/prompts', signedIn, jsonBody(), async (req, res) => {
    const body = bodyOf(CreatePromptBody, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    const ctx = contextOf(req);
    const prompt = await createPrompt(d, ctx, body, [workspaceId, headerWorkspaceOf(req)]);
    res.status(201).json(presentPrompt(ctx, prompt));
  });

  router.put('/api/prompts/:id', signedIn, jsonBody(), async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const body = bodyOf(UpdatePromptBody, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    const ctx = contextOf(req);
    const prompt = await updatePrompt(d, ctx, id, body, [workspaceId, headerWorkspaceOf(req)]);
    res.json(presentPrompt(ctx, prompt));
  });

  router.get('/api/prompts/:id/versions', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    const listed = await listVersions(d, contextOf(req), id, [workspaceId, headerWorkspaceOf(req)]);
    res.json({ current: listed.current, versions: listed.versions.map(presentVersion) });
  });

  router.post(
    '/api/prompts/:id/versions/:version/restore',
    signedIn,
    jsonBody(),
    async (req, res) => {
      const { id, version } = paramsOf(PromptVersionParams, req);
      const body = RestorePromptVersionBody.parse(req.body ?? {});
      const { workspaceId } = queryOf(PromptQuery, req);
      const ctx = contextOf(req);
      const prompt = await restoreVersion(d, ctx, id, version, body.currentVersion, [
        body.workspaceId,
        workspaceId,
        headerWorkspaceOf(req),
      ]);
      res.json(presentPrompt(ctx, prompt));
    },
  );

  router.delete('/api/prompts/:id', signedIn, async (req, res) => {
    const { id } = paramsOf(IdParams, req);
    const { workspaceId } = queryOf(PromptQuery, req);
    await deletePrompt(d, contextOf(req), id, [workspaceId, headerWorkspaceOf(req)]);
    res.status(204).end();
  });
}
