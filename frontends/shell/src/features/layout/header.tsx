import { Button, brandTitle, useWorkspace } from '@aict/web-kit';
import { MenuIcon } from './icons';
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
  return (
    <header className={styles.header}>
      {isMobile && (
        <>
          <Button
            variant="ghost"
            size="icon"
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            onClick={onOpenMenu}
          >
            <MenuIcon />
          </Button>
          <span className={styles.title}>{brandTitle(currentWorkspace?.name)}</span>
        </>
      )}
      <div className={styles.spacer} />
      <WorkspaceSelector />
    </header>
  );
}
