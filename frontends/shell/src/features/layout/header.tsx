import { Button, brandTitle, useTranslation, useWorkspace, MenuIcon } from '@aict/web-kit';
import { WorkspaceSelector } from './workspace-selector';
import styles from './header.module.css';

export function Header({
  isMobile,
  menuOpen,
  onOpenMenu,
}: {
  isMobile: boolean;
  menuOpen: boolean;
  onOpenMenu: () => void;
}) {
  const { currentWorkspace } = useWorkspace();
  const { t } = useTranslation();
  return (
    <header className={styles.header}>
      {isMobile && (
        <>
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('shell.nav.openMenu')}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            onClick={onOpenMenu}
          >
            <MenuIcon size={18} />
          </Button>
          <span className={styles.title} title={brandTitle(currentWorkspace?.name)}>
            {brandTitle(currentWorkspace?.name)}
          </span>
        </>
      )}
      <div className={styles.spacer} />
      <WorkspaceSelector />
    </header>
  );
}
