import {
  isModelFor,
  MODELS_BY_CONTENT_TYPE,
  parseTemplate,
  type TrustedContext,
} from '@aict/contracts';
import { isAdminIn } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import {
  KEEP_VERSIONS,
  versionsChain,
  type PromptVersionValue,
} from '../data/prompt-versions.model';
import { loadVisiblePrompt } from './access';
import { auditedPromptFields, auditEnvelope, changedFields } from './audit-act';
import { defaultPromptIdOf } from './default-prompt';
import type { DomainDeps } from './domain-deps';
import { promptSnapshot } from './prompt-snapshot';
import { syncPromptSummariesAfterWrite } from './prompt-summaries';
import {
  invalidField,
  promptMovedOn,
  publishedChangeForbidden,
  versionNotFound,
  versionsForbidden,
} from './prompt.errors';
import { viewPrompt, type PromptDetail } from './view-prompt';

// Prompt versions (issue 18). Version n is what the prompt's editable fields were after the
// write that gave it `rev: n` (data/prompt-versions.model.ts). Only admins of the prompt's
// workspace and super admins see or restore them (they see the full prompt anyway); who may
// not see the prompt at all gets 404, as for GET/PUT /api/prompts/:id.

export interface PromptVersionEntry extends PromptVersionValue {
  version: number;
  editedAt: Date;
}

/** The editable fields of a prompt as a version value. */
export function versionOf(record: PromptRecord, editedBy: string | null): PromptVersionValue {
  const value: PromptVersionValue = {
    name: record.name,
    template: record.template,
    category: record.category,
    contentType: record.contentType,
    model: record.model,
    editedBy,
  };
  if (record.description) value.description = record.description;
  return value;
}

/**
 * Records the version a write of the prompt made (after its compare and set succeeded). The
 * insert claims `_id` `versions:<id>@<rev>`, so a rev is recorded once: a duplicate means two
 * writes both took that rev (compare and set without isolation across processes on FerretDB
 * v1), which is logged; the first recorded stays. A failure only costs history, never the
 * write: it is logged too (the list then shows the prompt itself as the current version).
 */
export async function recordVersion(
  d: DomainDeps,
  saved: PromptRecord,
  editedBy: string | null,
): Promise<void> {
  const recorded = await d.versions
    .append(versionsChain(saved._id), saved.rev, versionOf(saved, editedBy))
    .catch((err: unknown) => {
      d.logger.warn({ err, promptId: saved._id }, 'prompt version not recorded');
      return true;
    });
  if (!recorded)
    d.logger.warn(
      { promptId: saved._id, rev: saved.rev },
      'two writes of a prompt took the same rev: the version recorded first stays',
    );
}

async function loadForVersions(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
) {
  const prompt = await loadVisiblePrompt(d, ctx, promptId, inView);
  if (!isAdminIn(ctx, prompt.workspaceId)) throw versionsForbidden();
  return { prompt };
}

/** The current version: the stored one, or the prompt itself when none was recorded. */
function currentEntry(
  prompt: PromptRecord,
  stored: PromptVersionEntry | undefined,
): PromptVersionEntry {
  return (
    stored ?? {
      ...versionOf(prompt, null),
      version: prompt.rev,
      editedAt: prompt.updatedAt,
    }
  );
}

async function storedVersions(d: DomainDeps, prompt: PromptRecord): Promise<PromptVersionEntry[]> {
  const chain = versionsChain(prompt._id);
  const numbers: number[] = [];
  for (let n = prompt.rev; n >= 1 && n >= prompt.rev - KEEP_VERSIONS; n--) numbers.push(n);
  const links = await Promise.all(numbers.map((n) => d.versions.at(chain, n)));
  return links.flatMap((link) =>
    link ? [{ ...link.value, version: link.n, editedAt: new Date(link.at) }] : [],
  );
}

/** GET /api/prompts/:id/versions: the kept versions, newest (the current one) first. */
export async function listVersions(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
): Promise<{ current: number; versions: PromptVersionEntry[] }> {
  const { prompt } = await loadForVersions(d, ctx, promptId, inView);
  const stored = await storedVersions(d, prompt);
  const latest = stored[0]?.version === prompt.rev ? stored[0] : undefined;
  const older = stored.filter((entry) => entry.version !== prompt.rev);
  return { current: prompt.rev, versions: [currentEntry(prompt, latest), ...older] };
}

/**
 * POST /api/prompts/:id/versions/:version/restore: a NEW version with the old one's editable
 * fields, written as PUT writes (compare and set on `rev` with its prompt.updated), and then
 * recorded. Never retried: when the prompt moved on (since `currentVersion`, or between this
 * read and the write) the newer edit is not replaced blindly; 409 says so.
 */
export async function restoreVersion(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  version: number,
  currentVersion: number | undefined,
  inView: number | null,
): Promise<PromptDetail> {
  const { prompt } = await loadForVersions(d, ctx, promptId, inView);
  if (prompt.isPublic && !ctx.sa) throw publishedChangeForbidden();
  const target =
    version === prompt.rev
      ? versionOf(prompt, null)
      : version < prompt.rev && version >= prompt.rev - KEEP_VERSIONS
        ? (await d.versions.at(versionsChain(promptId), version))?.value
        : undefined;
  if (!target) throw versionNotFound(version);
  if (currentVersion !== undefined && currentVersion !== prompt.rev) throw promptMovedOn();
  if (!isModelFor(target.contentType, target.model)) {
    // A model no longer offered since the version was written.
    throw invalidField(
      'model',
      `Version ${version} uses the model ${target.model}, which is no longer offered for ${target.contentType} prompts (${MODELS_BY_CONTENT_TYPE[target.contentType].join(', ')}).`,
    );
  }

  const updatedAt = new Date();
  const set = {
    name: target.name,
    template: target.template,
    variables: parseTemplate(target.template).variables,
    category: target.category,
    contentType: target.contentType,
    model: target.model,
    updatedAt,
  };
  const next: PromptRecord = { ...prompt, ...set };
  if (target.description) next.description = target.description;
  else delete next.description;
  const isDefault = (await defaultPromptIdOf(d, prompt.workspaceId)) === prompt._id;
  const saved = await d.prompts.updateIfUnchanged(
    promptId,
    prompt.rev,
    {
      set: target.description ? { ...set, description: target.description } : set,
      unset: target.description ? [] : ['description'],
    },
    [
      d.bus.envelope('prompt.updated', promptSnapshot(next, isDefault)),
      auditRestore(d, ctx, prompt, next, version),
    ],
  );
  if (!saved) throw promptMovedOn();
  d.relay.flushLater(d.models.Prompt, promptId);
  await recordVersion(d, saved, ctx.uid);
  await syncPromptSummariesAfterWrite(d, promptId);
  return viewPrompt(d, ctx, saved, inView, { isDefault });
}

/** The audit entry of a restore (issue 17): the fields it changed back, and from which version. */
function auditRestore(
  d: DomainDeps,
  ctx: TrustedContext,
  current: PromptRecord,
  next: PromptRecord,
  version: number,
) {
  const changed = changedFields(auditedPromptFields(current), auditedPromptFields(next));
  return auditEnvelope(d, ctx, {
    action: 'prompt.version-restored',
    workspaceId: current.workspaceId,
    targetType: 'prompt',
    targetId: current._id,
    before: changed.before,
    after: { ...changed.after, restoredVersion: version },
  });
}
