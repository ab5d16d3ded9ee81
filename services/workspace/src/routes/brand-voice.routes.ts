import type { RequestHandler, Router } from 'express';
import { BrandVoiceBody, WorkspaceParams } from '@aict/contracts';
import { contextOf, jsonBody, validate } from '@aict/service-kit';
import { getBrandVoice, putBrandVoice } from '../domain/brand-voice';
import type { DomainDeps } from '../domain/domain-deps';
import { paramsOf } from '../lib/params';
import { presentBrandVoice } from '../presenters/brand-voice.presenter';

/** A workspace's brand voice (issue 18): members read it, its admins write it. */
export function brandVoiceRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  const path = '/api/workspaces/:id/brand-voice';

  router.get(path, signedIn, async (req, res) => {
    const { id } = paramsOf(WorkspaceParams, req);
    res.json(presentBrandVoice(await getBrandVoice(d, contextOf(req), id)));
  });

  router.put(path, signedIn, jsonBody(), validate({ body: BrandVoiceBody }), async (req, res) => {
    const { id } = paramsOf(WorkspaceParams, req);
    res.json(presentBrandVoice(await putBrandVoice(d, contextOf(req), id, req.body)));
  });
}
