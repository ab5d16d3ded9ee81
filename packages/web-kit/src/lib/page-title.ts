import { useEffect } from 'react';
import { PRODUCT_NAME } from '../product';
import { useWorkspace } from '../session/workspace-provider';

/** 'page title - workspace name - product name' (SPEC §1); parts that are missing are left out. */
export function pageTitle(page: string | null | undefined, workspaceName?: string | null): string {
  return [page, workspaceName, PRODUCT_NAME].filter(Boolean).join(' - ');
}

/** Sets document.title for the current screen. */
export function usePageTitle(page: string | null | undefined): void {
  const { currentWorkspace } = useWorkspace();
  const title = pageTitle(page, currentWorkspace?.name);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
