import { useSearchParams } from 'react-router-dom';
import { DEFAULT_SETTINGS_TAB, SETTINGS_TABS } from '@aict/contracts';
import {
  Page,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  useSession,
  useTranslation,
} from '@aict/web-kit';
import { RequireAdmin } from '../../../lib/admin-access';
import { ApiKeysTab } from './api-keys-tab';
import { UsersTab } from './users-tab';
import { WorkspacesTab } from './workspaces-tab';
import styles from './settings.module.css';

export type SettingsTab = (typeof SETTINGS_TABS)[number];

const LABELS = {
  'api-keys': 'admin.settings.tab_apiKeys',
  users: 'admin.settings.tab_users',
  workspaces: 'admin.settings.tab_workspaces',
} as const satisfies Record<SettingsTab, string>;

/**
 * The tab named by ?tab= (SPEC §2): api-keys by default; workspaces only for super admins,
 * anyone else asking for it (or for an unknown tab) gets api-keys.
 */
export function useSettingsTab(): [SettingsTab, (tab: string) => void, SettingsTab[]] {
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const allowed = SETTINGS_TABS.filter((tab) => tab !== 'workspaces' || user?.isSuperAdmin);
  const requested = params.get('tab');
  const tab = allowed.find((t) => t === requested) ?? DEFAULT_SETTINGS_TAB;
  const select = (next: string) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );
  return [tab, select, allowed];
}

/** /settings (admins only): provider keys and default models, users, workspaces. */
export function SettingsPage() {
  return (
    <RequireAdmin>
      <SettingsTabs />
    </RequireAdmin>
  );
}

function SettingsTabs() {
  const [tab, selectTab, tabs] = useSettingsTab();
  const { t } = useTranslation();
  return (
    <Page title={t('admin.settings.title')} description={t('admin.settings.description')}>
      <Tabs value={tab} onValueChange={selectTab}>
        <div className={styles.tabs}>
          <TabsList aria-label={t('admin.settings.sections')}>
            {tabs.map((value) => (
              <TabsTrigger key={value} value={value}>
                {t(LABELS[value])}
              </TabsTrigger>
            ))}
          </TabsList>
        </div>
        <TabsContent value="api-keys">
          <ApiKeysTab />
        </TabsContent>
        <TabsContent value="users">
          <UsersTab />
        </TabsContent>
        {tabs.includes('workspaces') && (
          <TabsContent value="workspaces">
            <WorkspacesTab />
          </TabsContent>
        )}
      </Tabs>
    </Page>
  );
}
