import type { Readable } from 'node:stream';
import type { TrustedContext } from '@aict/contracts';
import type { LogoRecord } from '../data/workspace.model';
import { authorizeMember } from './authorize';
import type { DomainDeps } from './domain-deps';
import { logoNotFound } from './workspace.errors';

export interface LogoFile {
  logo: LogoRecord;
  stream: Readable;
  size: number;
}

/** A workspace's logo, for its members only (anyone else: 404). */
export async function readLogo(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<LogoFile> {
  const workspace = await authorizeMember(d, ctx, workspaceId);
  if (!workspace.logo) throw logoNotFound();
  const object = await d.storage.get(workspace.logo.key);
  if (!object) throw logoNotFound();
  return { logo: workspace.logo, stream: object.stream, size: object.info.size };
}
