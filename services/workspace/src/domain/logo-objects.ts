import type { DomainDeps } from './domain-deps';

/**
 * For the orphan sweep: true when a workspace points at the logo object `key`
 * (`workspaces/<id>/logo/<version>.<ext>`); one read by `_id`. Keys of another shape are kept.
 */
export async function isLogoReferenced(d: DomainDeps, key: string): Promise<boolean> {
  const match = /^workspaces\/(\d+)\/logo\/[^/]+$/.exec(key);
  if (!match) return true;
  const workspace = await d.workspaces.findById(Number(match[1]));
  return workspace?.logo?.key === key;
}
