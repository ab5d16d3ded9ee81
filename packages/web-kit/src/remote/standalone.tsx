import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { useSession } from '../session/session-provider';
import { useWorkspace } from '../session/workspace-provider';
import { Select } from '../ui/input';
import { Spinner } from '../ui/feedback';
import { useKitTranslation } from '../i18n/use-kit-translation';

/**
 * The frame of a remote running alone for development (`npm run dev -w @aict/<name>-app`):
 * links to its screens, the workspace picker and the session state. Sign in through the shell
 * (same host, so the session cookie is shared); the shell never renders this.
 */
export function StandaloneRemote({
  name,
  links,
  children,
}: {
  name: string;
  links: Array<{ to: string; label: string }>;
  children: ReactNode;
}) {
  const { t } = useKitTranslation();
  const { user, isLoading } = useSession();
  const { workspaces, currentWorkspaceId, selectWorkspace } = useWorkspace();
  return (
    <div className="wk-standalone">
      <header className="wk-standalone__bar">
        <strong>{t('kit.standalone', { name })}</strong>
        <nav aria-label={t('kit.screens')}>
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} end>
              {link.label}
            </NavLink>
          ))}
        </nav>
        {user && (
          <Select
            aria-label={t('shell.workspace.label')}
            value={currentWorkspaceId ?? ''}
            onChange={(event) => selectWorkspace(Number(event.target.value))}
          >
            {workspaces.length === 0 && <option value="">{t('shell.workspace.none')}</option>}
            {workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </Select>
        )}
        <span>
          {isLoading ? <Spinner size="sm" /> : user ? user.username : t('kit.notSignedIn')}
        </span>
      </header>
      {!isLoading && !user ? (
        <p className="wk-standalone__note">
          Not signed in. Sign in through the shell on this host (its dev server, port 3000, at
          /auth); the session cookie is shared across ports.
        </p>
      ) : (
        children
      )}
    </div>
  );
}
