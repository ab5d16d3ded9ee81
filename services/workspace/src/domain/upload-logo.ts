import { randomUUID } from 'node:crypto';
import type { TrustedContext } from '@aict/contracts';
import { AppError, assertImagePixels, sniffImage } from '@aict/service-kit';
import type { WorkspaceRecord } from '../data/workspace.model';
import { authorizeSuperAdminOn } from './authorize';
import { logoPrefixOf } from './delete-workspace';
import { auditEnvelope } from './audit-act';
import type { DomainDeps } from './domain-deps';
import { withWorkspaceLock } from './locks';
import { workspaceNotFound } from './workspace.errors';
import { workspaceSnapshot } from './workspace-snapshot';

export const LOGO_TYPE_MESSAGE = 'Only PNG, JPEG and WebP images are allowed.';

/**
 * Super administrators upload a workspace logo: PNG, JPEG or WebP judged by its bytes (not
 * its name or declared type), stored in MinIO under a key the server chooses, the previous
 * logo removed once the workspace points at the new one.
 */
export async function uploadLogo(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  readFile: () => Promise<Buffer>,
): Promise<WorkspaceRecord> {
  const current = await authorizeSuperAdminOn(d, ctx, workspaceId);
  const bytes = await readFile();
  const type = sniffImage(bytes);
  if (!type) throw new AppError('FILE.INVALID_TYPE', 400, LOGO_TYPE_MESSAGE);
  // The size its header declares, before anything decodes it (browsers do). The logo is
  // stored as sent, never decoded here: a header without a size is left to the type check.
  assertImagePixels(bytes);

  const version = randomUUID();
  const logo = {
    key: `${logoPrefixOf(workspaceId)}logo/${version}.${type.ext}`,
    contentType: type.mime,
    version: version.slice(0, 8),
    size: bytes.length,
  };
  await d.storage.put(logo.key, bytes, { contentType: type.mime });

  const now = new Date();
  // Object first, record second: when the record cannot be written, the object goes again.
  const before = await withWorkspaceLock(d, workspaceId, async () => {
    const latest = (await d.workspaces.findById(workspaceId)) ?? current;
    const next: WorkspaceRecord = { ...latest, logo, updatedAt: now };
    return d.workspaces.update(
      workspaceId,
      { set: { logo, updatedAt: now } },
      [
        d.bus.envelope('workspace.updated', workspaceSnapshot(next)),
        auditEnvelope(d, ctx, {
          action: 'workspace.logo-changed',
          workspaceId,
          targetType: 'workspace',
          targetId: String(workspaceId),
          before: { logo: latest.logo?.version ?? null },
          after: { logo: logo.version, contentType: logo.contentType, size: logo.size },
        }),
      ],
      'before',
    );
  }).catch(async (err: unknown) => {
    await d.storage.remove(logo.key).catch(() => undefined);
    throw err;
  });
  if (!before) {
    await d.storage.remove(logo.key).catch(() => undefined);
    throw workspaceNotFound();
  }
  d.outbox.flushLater(d.models.Workspace, workspaceId);
  if (before.logo && before.logo.key !== logo.key) {
    await d.storage
      .remove(before.logo.key)
      .catch((err: unknown) => d.logger.warn({ err, workspaceId }, 'previous logo not removed'));
  }
  return { ...before, logo, updatedAt: now };
}
