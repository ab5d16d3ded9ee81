import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Dialog, useIsMobile, useTranslation } from '@aict/web-kit';
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
        <main className={styles.content}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
