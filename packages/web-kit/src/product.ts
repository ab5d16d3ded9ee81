/**
 * The product's name: the last part of every page title, and the sidebar title when no
 * workspace name is available. SPEC §1 does not reproduce the wording, so this one is ours;
 * it lives here (not in @aict/contracts) because only the front-ends show it.
 */
export const PRODUCT_NAME = 'AI Content Tool';

/** '{workspace name} AI', or the product name when there is no workspace name (SPEC §1). */
export function brandTitle(workspaceName: string | null | undefined): string {
  return workspaceName ? `${workspaceName} AI` : PRODUCT_NAME;
}

/** '{workspace name} GPT': the first sidebar item and the chat screen's title (SPEC §1, §2). */
export function gptTitle(workspaceName: string | null | undefined): string {
  return workspaceName ? `${workspaceName} GPT` : 'GPT';
}
