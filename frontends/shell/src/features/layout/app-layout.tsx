import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Dialog, useIsMobile, useSession, useTranslation, useWorkspace } from '@aict/web-kit';
import { BudgetBanner } from './budget-banner';
import { NoWorkspaceScreen } from './first-run/no-workspace';
import { SetupChecklist } from './first-run/setup-checklist';
import { Header } from './header';
import { Sidebar } from './sidebar';
import styles from './app-layout.module.css';

/**
 * Sidebar + header + the current screen. Under 768 px the sidebar is a drawer (a modal
 * dialog) opened by the menu button; it closes on route change, Escape and a backdrop click.
 */
export function AppLayout() {
  const isMobile = useIsMobile();
  const { t } = useTranslation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  const { user } = useSession();
  const { workspaces, isLoading } = useWorkspace();
  // a member of no workspace: say why nothing shows and what to do (a super admin sees the
  // checklist instead, which starts with creating one)
  const noWorkspace = Boolean(user) && !user?.isSuperAdmin && !isLoading && workspaces.length === 0;

  useEffect(() => setDrawerOpen(false), [pathname, isMobile]);

  return (
    <div className={styles.layout}>
      {isMobile ? (
        <Dialog
          side="left"
          open={drawerOpen}
          onOpenChange={setDrawerOpen}
          aria-label={t('shell.nav.navigation')}
          closeButton={false}
        >
          <Sidebar />
        </Dialog>
      ) : (
        <aside className={styles.sidebar}>
          <Sidebar />
        </aside>
      )}
      <div className={styles.main}>
        <Header isMobile={isMobile} menuOpen={drawerOpen} onOpenMenu={() => setDrawerOpen(true)} />
        <BudgetBanner />
        <main className={styles.content}>
          {noWorkspace ? (
            <NoWorkspaceScreen />
          ) : (
            <>
              {pathname === '/' && <SetupChecklist />}
              <Outlet />
            </>
          )}
        </main>
      </div>
    </div>
  );
}
