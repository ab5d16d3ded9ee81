import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { SettingResponse, UsersResponse } from '@aict/contracts';
import { DEFAULT_WORKSPACE_ID } from '@aict/contracts/constants';
import {
  apiJson,
  Button,
  buttonClass,
  isAdminOf,
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

export type SetupStep = 'key' | 'model' | 'prompt' | 'workspace' | 'members';

/** Who the checklist is for: the super admin (the product) or a workspace's admin. */
type Audience = 'product' | 'workspace';

const STEPS: Record<Audience, readonly SetupStep[]> = {
  product: ['key', 'model', 'prompt', 'workspace', 'members'],
  workspace: ['key', 'prompt', 'members'],
};

const STEP_LINKS: Record<SetupStep, string> = {
  key: '/settings?tab=api-keys',
  model: '/settings?tab=api-keys',
  prompt: '/prompts',
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

/** Whether the workspace has a default prompt (its own cache entry: the chat's throws on 404). */
async function hasDefaultPrompt(workspaceId: number): Promise<boolean> {
  try {
    await apiJson('GET', queryKeys.defaultPrompt(workspaceId)[0]);
    return true;
  } catch (error) {
    if (isApiError(error, 404)) return false;
    throw error;
  }
}

/**
 * What is set up yet, from the calls the Settings screen makes (same query keys and shapes, so
 * the answers are shared with it): a provider key (the workspace's, or for a super admin, who
 * may read it, the global one), a saved
 * default text model, the workspace's default prompt, a workspace besides the default one, and
 * users besides oneself. A workspace admin's list is asked for only when the workspace has no
 * default prompt: that is when it shows.
 */
function useSetupSteps(audience: Audience | null): Partial<Record<SetupStep, boolean>> | null {
  const { currentWorkspaceId, workspaces, isLoading } = useWorkspace();
  // wait for the current workspace: its key (or the global one it falls back to) is the one used
  const enabled = audience !== null && !isLoading;
  const prompt = useQuery({
    queryKey: [...queryKeys.defaultPrompt(currentWorkspaceId ?? 0), 'setup'],
    queryFn: () => hasDefaultPrompt(currentWorkspaceId!),
    enabled: enabled && currentWorkspaceId !== null,
    retry: false,
  });
  const rest = audience === 'product' || prompt.data === false;
  const key = useQuery({
    queryKey: queryKeys.apiKeySetting(currentWorkspaceId),
    queryFn: () => getSetting(queryKeys.apiKeySetting(currentWorkspaceId)[0], 'openai_api_key'),
    enabled: enabled && rest,
  });
  // the key for all workspaces, which only a super admin may read
  const globalKey = useQuery({
    queryKey: queryKeys.apiKeySetting(null),
    queryFn: () => getSetting(queryKeys.apiKeySetting(null)[0], 'openai_api_key'),
    enabled: enabled && audience === 'product',
  });
  const model = useQuery({
    queryKey: queryKeys.defaultModelSetting('text'),
    queryFn: () =>
      getSetting(queryKeys.defaultModelSetting('text')[0], 'default_text_model').then(
        (setting) => setting.value ?? null,
      ),
    enabled: enabled && audience === 'product',
  });
  const users = useQuery({
    queryKey: queryKeys.users(),
    queryFn: () => apiJson<UsersResponse>('GET', queryKeys.users()[0]),
    enabled: enabled && rest,
  });
  if (audience === null || !key.isSuccess || !users.isSuccess) return null;
  if (audience === 'product' && !(model.isSuccess && globalKey.isSuccess)) return null;
  if (currentWorkspaceId !== null && !prompt.isSuccess) return null;
  const done: Record<SetupStep, boolean> = {
    key: Boolean(key.data.value || globalKey.data?.value),
    model: Boolean(model.data),
    prompt: prompt.data === true,
    workspace: workspaces.some((workspace) => workspace.id !== DEFAULT_WORKSPACE_ID),
    members: users.data.length > 1,
  };
  return Object.fromEntries(STEPS[audience].map((step) => [step, done[step]]));
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
 * The set-up checklist, on the first visit of the home screen in a session while a step is
 * left, each step with a link to where it is done. A super admin's: provider key, default
 * models, the current workspace's default prompt, a workspace and its members. A workspace admin's, while the workspace has no default
 * prompt (chat is off): provider key, default prompt, members. A card at the top of the home
 * screen (a region named by its title), never a dialog: it shows once its answers are in, so
 * it must not take the focus or block what the user has started meanwhile. Later closes it for
 * this session; Hide checklist for good (a workspace admin's per workspace).
 */
export function SetupChecklist() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { currentWorkspace, currentWorkspaceId } = useWorkspace();
  const audience: Audience | null = user?.isSuperAdmin
    ? 'product'
    : isAdminOf(user, currentWorkspaceId)
      ? 'workspace'
      : null;
  const suffix = audience === 'workspace' ? `:${currentWorkspaceId}` : '';
  const hiddenKey = CHECKLIST_HIDDEN_KEY + suffix;
  const seenKey = CHECKLIST_SEEN_KEY + suffix;
  // what was hidden or seen, by storage key (a workspace admin's differ per workspace)
  const [closed, setClosed] = useState<Record<string, boolean>>({});
  const hidden = closed[hiddenKey] ?? readStorage(hiddenKey) === 'true';
  const seen = closed[seenKey] ?? readSession(seenKey) === 'true';
  const show = audience !== null && !hidden && !seen;
  const steps = useSetupSteps(show ? audience : null);
  if (!show || !steps) return null;
  const entries = Object.entries(steps) as [SetupStep, boolean][];
  const done = entries.filter(([, complete]) => complete).length;
  if (done === entries.length) return null;

  const later = () => {
    writeSession(seenKey, 'true');
    setClosed((current) => ({ ...current, [seenKey]: true }));
  };
  const hide = () => {
    writeStorage(hiddenKey, 'true');
    setClosed((current) => ({ ...current, [hiddenKey]: true }));
  };

  return (
    <section className={styles.checklist} aria-labelledby="setup-checklist-title">
      <div className={styles.checklistHeader}>
        <div>
          <h2 id="setup-checklist-title" className={styles.checklistTitle}>
            {audience === 'workspace'
              ? t('firstRun.workspaceChecklistTitle', { workspace: currentWorkspace?.name ?? '' })
              : t('firstRun.checklistTitle', { product: PRODUCT_NAME })}
          </h2>
          <p className={styles.text}>
            {audience === 'workspace'
              ? t('firstRun.workspaceChecklistText')
              : t('firstRun.checklistText')}
          </p>
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
              <span className={styles.stepText}>
                {audience === 'workspace' && step === 'key'
                  ? t('firstRun.stepText_workspaceKey') // the global key is not theirs to see
                  : t(`firstRun.stepText_${step}`)}
              </span>
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
      <div className={styles.checklistFooter}>
        <Button variant="ghost" onClick={hide}>
          {t('firstRun.hide')}
        </Button>
        <Button variant="outline" onClick={later}>
          {t('firstRun.later')}
        </Button>
      </div>
    </section>
  );
}
