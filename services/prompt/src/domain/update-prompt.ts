import {
  isModelFor,
  MODELS_BY_CONTENT_TYPE,
  parseTemplate,
  type AuditSummary,
  type TrustedContext,
  type UpdatePromptBody,
} from '@aict/contracts';
import { isAdminIn } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import type { ReferenceImageRecord } from '../data/prompt-images.model';
import type { PromptChanges } from '../data/prompt.repository';
import { parseReferenceImageUrl } from '../lib/reference-image-url';
import { assertCanEdit, assertCanPublish, loadVisiblePrompt } from './access';
import { auditedPromptFields, auditEnvelope, changedFields } from './audit-act';
import { clearDefaultPrompt, defaultPromptIdOf, setDefaultPrompt } from './default-prompt';
import type { DomainDeps } from './domain-deps';
import { assertRoomForPublic } from './prompt-limits';
import { promptSnapshot } from './prompt-snapshot';
import { recordVersion } from './prompt-versions';
import { syncPromptSummariesAfterWrite } from './prompt-summaries';
import { busyPrompt, defaultFlagForbidden, invalidField } from './prompt.errors';
import { changeImages } from './reference-images';
import { viewPrompt, type PromptDetail } from './view-prompt';

const MAX_ATTEMPTS = 5;

/**
 * PUT /api/prompts/:id: admins of the prompt's workspace and its owner edit it; only admins
 * change the default flag. `referenceImageUrls` keeps exactly the listed images (`[]`, or
 * `referenceImageUrl: null` alone, removes them all) and the removed images' objects go.
 * load → authorise → apply the changes → compare-and-set with prompt.updated → default
 * pointer → reference images → summaries.
 */
export async function updatePrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  body: UpdatePromptBody,
  inView: number | null,
): Promise<PromptDetail> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await loadVisiblePrompt(d, ctx, promptId, inView);
    assertCanEdit(ctx, current);
    const wasDefault = (await defaultPromptIdOf(d, current.workspaceId)) === current._id;
    if (
      body.isDefault !== undefined &&
      body.isDefault !== wasDefault &&
      !isAdminIn(ctx, current.workspaceId)
    ) {
      throw defaultFlagForbidden();
    }
    const { changes, next } = applyChanges(current, body);
    if (next.isPublic && !current.isPublic) {
      assertCanPublish(ctx);
      await assertRoomForPublic(d);
    }
    const isDefault = body.isDefault ?? wasDefault;

    const saved = await d.prompts.updateIfUnchanged(promptId, current.rev, changes, [
      d.bus.envelope('prompt.updated', promptSnapshot(next, isDefault)),
      ...auditedEdit(d, ctx, current, next, body),
    ]);
    if (!saved) continue; // changed (or deleted) meanwhile: read it again
    d.relay.flushLater(d.models.Prompt, promptId);
    await recordVersion(d, saved, ctx.uid);

    if (body.isDefault === true) await setDefaultPrompt(d, saved.workspaceId, promptId, ctx);
    if (body.isDefault === false) await clearDefaultPrompt(d, saved.workspaceId, promptId, ctx);
    const images = wantsImageChange(body)
      ? await changeImages(
          d,
          saved,
          (currentImages) => keepImages(promptId, currentImages, body),
          async () => [], // announced by this update's prompt.updated
        )
      : undefined;
    await syncPromptSummariesAfterWrite(d, promptId);
    return viewPrompt(d, ctx, saved, inView, { isDefault, images });
  }
  throw busyPrompt();
}

/**
 * The audit event of an edit: the fields that changed (the template as a fingerprint), or
 * that the reference images changed; none when only the default flag did (that change has
 * its own entry, prompt.default-changed).
 */
function auditedEdit(
  d: DomainDeps,
  ctx: TrustedContext,
  current: PromptRecord,
  next: PromptRecord,
  body: UpdatePromptBody,
) {
  const changed = changedFields(auditedPromptFields(current), auditedPromptFields(next));
  if (changed.after === null && !wantsImageChange(body)) return [];
  const images: AuditSummary = wantsImageChange(body) ? { referenceImages: 'changed' } : {};
  return [
    auditEnvelope(d, ctx, {
      action: 'prompt.updated',
      workspaceId: current.workspaceId,
      targetType: 'prompt',
      targetId: current._id,
      before: changed.before,
      after: { ...changed.after, ...images },
    }),
  ];
}

function applyChanges(
  current: PromptRecord,
  body: UpdatePromptBody,
): { changes: PromptChanges; next: PromptRecord } {
  const set: PromptChanges['set'] = { updatedAt: new Date() };
  const unset: NonNullable<PromptChanges['unset']> = [];
  if (body.name !== undefined) set.name = body.name;
  if (body.description !== undefined) {
    if (body.description) set.description = body.description;
    else unset.push('description');
  }
  if (body.template !== undefined) {
    set.template = body.template;
    set.variables = parseTemplate(body.template).variables;
  }
  if (body.category !== undefined) set.category = body.category;
  if (body.contentType !== undefined) set.contentType = body.contentType;
  if (body.model !== undefined) set.model = body.model;
  if (body.isPublic !== undefined) set.isPublic = body.isPublic;

  // A model or a content type sent alone is checked against the stored other half.
  const contentType = set.contentType ?? current.contentType;
  const model = set.model ?? current.model;
  if (!isModelFor(contentType, model)) {
    throw invalidField(
      'model',
      `Model must be one of ${MODELS_BY_CONTENT_TYPE[contentType].join(', ')} for ${contentType} prompts`,
    );
  }
  for (const url of body.referenceImageUrls ?? []) {
    if (parseReferenceImageUrl(url)?.promptId !== current._id) {
      throw invalidField(
        'referenceImageUrls',
        "referenceImageUrls must hold this prompt's reference image URLs",
      );
    }
  }

  const next: PromptRecord = { ...current, ...set };
  if (unset.includes('description')) delete next.description;
  return { changes: { set, unset }, next };
}

const wantsImageChange = (body: UpdatePromptBody) =>
  body.referenceImageUrls !== undefined || body.referenceImageUrl === null;

/** The reference images the update keeps, in the order given; null when nothing changes. */
function keepImages(
  promptId: string,
  current: ReferenceImageRecord[],
  body: UpdatePromptBody,
): { images: ReferenceImageRecord[]; removed: ReferenceImageRecord[] } | null {
  const kept: ReferenceImageRecord[] = [];
  if (body.referenceImageUrls !== undefined) {
    for (const url of body.referenceImageUrls) {
      const named = parseReferenceImageUrl(url);
      // An image removed meanwhile (another tab) is simply no longer there to keep.
      const image = current.find((candidate) => candidate.id === named?.imageId);
      if (named?.promptId === promptId && image && !kept.includes(image)) kept.push(image);
    }
  }
  const unchanged =
    kept.length === current.length && kept.every((image, i) => image === current[i]);
  if (unchanged) return null;
  return { images: kept, removed: current.filter((image) => !kept.includes(image)) };
}
