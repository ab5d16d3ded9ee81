import { Route } from 'react-router-dom';
import { RemoteRoutes } from '@aict/web-kit';
import { AuditPage } from '../features/audit/components/audit-page';
import { ApiTokensPage } from '../features/api-tokens/components/api-tokens-page';
import { CreatePromptPage } from '../features/prompts/components/create-prompt-page';
import { PromptDetailPage } from '../features/prompts/components/prompt-detail-page';
import { PromptsPage } from '../features/prompts/components/prompts-page';
import { SettingsPage } from '../features/settings/components/settings-page';
import { UsagePage } from '../features/usage/components/usage-page';
import { RequireAdmin } from '../lib/admin-access';

/**
 * The admin remote's screens, exposed as './App'. Paths are matched from the site root
 * (RemoteRoutes); the shell's route table (frontends/shell/src/app/routes.tsx) lists the same paths.
 */
export default function App() {
  return (
    <RemoteRoutes>
      <Route path="prompts" element={<PromptsPage />} />
      <Route
        path="prompts/create"
        element={
          <RequireAdmin redirectTo="/">
            <CreatePromptPage />
          </RequireAdmin>
        }
      />
      <Route path="prompts/:id" element={<PromptDetailPage />} />
      <Route path="settings" element={<SettingsPage />} />
      <Route
        path="usage"
        element={
          <RequireAdmin>
            <UsagePage />
          </RequireAdmin>
        }
      />
      <Route path="api-tokens" element={<ApiTokensPage />} />
      <Route
        path="audit"
        element={
          <RequireAdmin>
            <AuditPage />
          </RequireAdmin>
        }
      />
      <Route path="*" element={null} />
    </RemoteRoutes>
  );
}
