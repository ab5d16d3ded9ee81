import { randomUUID } from 'node:crypto';
import { parseTemplate, type CreatePromptBody, type TrustedContext } from '@aict/contracts';
import { isAdminIn } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import { assertCanPublish } from './access';
import { auditEnvelope, promptAuditSummary } from './audit-act';
import { setDefaultPrompt } from './default-prompt';
import type { DomainDeps } from './domain-deps';
import { assertRoomForPublic, assertRoomInWorkspace } from './prompt-limits';
import { syncPromptSummariesAfterWrite } from './prompt-summaries';
import { promptSnapshot } from './prompt-snapshot';
import { recordVersion } from './prompt-versions';
import { createForbidden, workspaceRequired } from './prompt.errors';
import type { PromptDetail } from './view-prompt';

/**
 * POST /api/prompts: admins (super admin, or admin of the workspace) create a prompt in the
 * workspace the body names (else the one in view); only a super admin publishes it to every
 * workspace (isPublic). authorise → check room → insert with
 * prompt.created → default pointer → summaries.
 */
export async function createPrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  body: CreatePromptBody,
  workspaceId: number | null,
): Promise<PromptDetail> {
  if (workspaceId === null) throw workspaceRequired();
  if (!isAdminIn(ctx, workspaceId)) throw createForbidden();
  await assertRoomInWorkspace(d, workspaceId);
  if (body.isPublic) {
    assertCanPublish(ctx);
    await assertRoomForPublic(d);
  }

  const now = new Date();
  const record: PromptRecord = {
    _id: randomUUID(),
    workspaceId,
    userId: ctx.uid!,
    name: body.name,
    template: body.template,
    variables: parseTemplate(body.template).variables,
    category: body.category,
    contentType: body.contentType,
    model: body.model,
    isPublic: body.isPublic,
    rev: 1,
    createdAt: now,
    updatedAt: now,
  };
  if (body.description) record.description = body.description;

  await d.prompts.insert(record, [
    d.bus.envelope('prompt.created', promptSnapshot(record, body.isDefault)),
    auditEnvelope(d, ctx, {
      action: 'prompt.created',
      workspaceId,
      targetType: 'prompt',
      targetId: record._id,
      after: promptAuditSummary(record),
    }),
  ]);
  d.relay.flushLater(d.models.Prompt, record._id);
  await recordVersion(d, record, ctx.uid);
  if (body.isDefault) await setDefaultPrompt(d, workspaceId, record._id, ctx);
  await syncPromptSummariesAfterWrite(d, record._id);
  return { record, isDefault: body.isDefault, full: true, images: [] };
}
