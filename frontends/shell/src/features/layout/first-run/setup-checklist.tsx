import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { SettingResponse, UsersResponse } from '@aict/contracts';
import { DEFAULT_WORKSPACE_ID } from '@aict/contracts/constants';
import {
  apiJson,
  Button,
  buttonClass,
  Dialog,
  DialogFooter,
  isApiError,
  PRODUCT_NAME,
  queryKeys,
  readStorage,
  useSession,
  useTranslation,
  useWorkspace,
  writeStorage,
} from '@aict/web-kit';
import styles from './first-run.module.css';

/** localStorage key: the super admin hid the checklist (it stays hidden in this browser). */
export const CHECKLIST_HIDDEN_KEY = 'setupChecklistHidden';

export type SetupStep = 'key' | 'model' | 'workspace' | 'members';

const STEP_LINKS: Record<SetupStep, string> = {
  key: '/settings?tab=api-keys',
  model: '/settings?tab=api-keys',
  workspace: '/settings?tab=workspaces',
  members: '/settings?tab=users',
};

/** A setting's response, or unset on a 404 (the same shape the admin remote caches). */
async function getSetting(url: string, key: string): Promise<SettingResponse> {
  try {
    return await apiJson<SettingResponse>('GET', url);
  } catch (error) {
    if (isApiError(error, 404)) return { key, value: null } as SettingResponse;
    throw error;
  }
}

/**
 * What is set up yet, from the calls the Settings screen makes (same query keys and shapes, so
 * the answers are shared with it): a provider key (the workspace's or the global one), a saved
 * default text model, a workspace besides the default one, and users besides oneself.
 */
function useSetupSteps(show: boolean): Record<SetupStep, boolean> | null {
  const { currentWorkspaceId, workspaces, isLoading } = useWorkspace();
  // wait for the current workspace: its key (or the global one it falls back to) is the one used
  const enabled = show && !isLoading;
  const key = useQuery({
    queryKey: queryKeys.apiKeySetting(currentWorkspaceId),
    queryFn: () => getSetting(queryKeys.apiKeySetting(currentWorkspaceId)[0], 'openai_api_key'),
    enabled,
  });
  const model = useQuery({
    queryKey: queryKeys.defaultModelSetting('text'),
    queryFn: () =>
      getSetting(queryKeys.defaultModelSetting('text')[0], 'default_text_model').then(
        (setting) => setting.value ?? null,
      ),
    enabled,
  });
  const users = useQuery({
    queryKey: queryKeys.users(),
    queryFn: () => apiJson<UsersResponse>('GET', queryKeys.users()[0]),
    enabled,
  });
  if (!key.isSuccess || !model.isSuccess || !users.isSuccess) return null;
  return {
    key: Boolean(key.data.value),
    model: Boolean(model.data),
    workspace: workspaces.some((workspace) => workspace.id !== DEFAULT_WORKSPACE_ID),
    members: users.data.length > 1,
  };
}

/** sessionStorage key: the checklist was seen (closed with Later) in this browser session. */
export const CHECKLIST_SEEN_KEY = 'setupChecklistSeen';

function readSession(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeSession(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage unavailable: it shows again on the next visit
  }
}

/**
 * A super admin's set-up checklist, on the first visit of the home screen in a session while a
 * step is left: provider key, default models, a workspace and its members, each with a link to
 * where it is done. A dialog, so it never pushes the chat out of its screen. Later closes it
 * for this session; Hide checklist for good.
 */
export function SetupChecklist() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [hidden, setHidden] = useState(() => readStorage(CHECKLIST_HIDDEN_KEY) === 'true');
  const [seen, setSeen] = useState(() => readSession(CHECKLIST_SEEN_KEY) === 'true');
  const show = user?.isSuperAdmin === true && !hidden && !seen;
  const steps = useSetupSteps(show);
  if (!show || !steps) return null;
  const entries = Object.entries(steps) as [SetupStep, boolean][];
  const done = entries.filter(([, complete]) => complete).length;
  if (done === entries.length) return null;

  const later = () => {
    writeSession(CHECKLIST_SEEN_KEY, 'true');
    setSeen(true);
  };
  const hide = () => {
    writeStorage(CHECKLIST_HIDDEN_KEY, 'true');
    setHidden(true);
  };

  return (
    <Dialog open onOpenChange={(open) => !open && later()} aria-labelledby="setup-checklist-title">
      <div className={styles.checklistHeader}>
        <div>
          <h2 id="setup-checklist-title" className={styles.checklistTitle}>
            {t('firstRun.checklistTitle', { product: PRODUCT_NAME })}
          </h2>
          <p className={styles.text}>{t('firstRun.checklistText')}</p>
        </div>
        <span className={styles.progress}>
          {t('firstRun.progress', { done, total: entries.length })}
        </span>
      </div>
      <ol className={styles.steps}>
        {entries.map(([step, complete]) => (
          <li key={step} className={styles.step} data-done={complete}>
            <span className={styles.stepMark} aria-hidden="true">
              {complete ? '✓' : ''}
            </span>
            <span className={styles.stepBody}>
              <span className={styles.stepTitle}>
                {t(`firstRun.step_${step}`)}
                <span className="wk-sr-only">
                  {' '}
                  ({complete ? t('firstRun.done') : t('firstRun.todo')})
                </span>
              </span>
              <span className={styles.stepText}>{t(`firstRun.stepText_${step}`)}</span>
            </span>
            {!complete && (
              <Link
                to={STEP_LINKS[step]}
                onClick={later}
                className={buttonClass({ variant: 'outline', size: 'sm' })}
              >
                {t(`firstRun.stepAction_${step}`)}
              </Link>
            )}
          </li>
        ))}
      </ol>
      <DialogFooter className={styles.checklistFooter}>
        <Button variant="ghost" onClick={hide}>
          {t('firstRun.hide')}
        </Button>
        <Button onClick={later}>{t('firstRun.later')}</Button>
      </DialogFooter>
    </Dialog>
  );
}
