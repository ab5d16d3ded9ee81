import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import * as Popover from '@radix-ui/react-popover';
import type { Workspace } from '@aict/contracts';
import { Icon, cn, initials, useTranslation, useWorkspace } from '@aict/web-kit';
import styles from './workspace-selector.module.css';

/** From this many workspaces on, the menu has a search field. */
export const SEARCH_FROM = 5;

/** A workspace's logo, or its initials on a coloured square. */
function WorkspaceMark({ workspace }: { workspace: Pick<Workspace, 'name' | 'logoUrl'> }) {
  return workspace.logoUrl ? (
    <img className={styles.mark} src={workspace.logoUrl} alt="" />
  ) : (
    <span className={cn(styles.mark, styles.initials)} aria-hidden="true">
      {initials(workspace.name) || '?'}
    </span>
  );
}

/**
 * The current-workspace switcher (SPEC §2 header): a button that reads 'No workspaces' when
 * there are none, else the current workspace (or the placeholder 'Select workspace'), opening
 * a menu of the user's workspaces with their logo or initials, a search field from
 * SEARCH_FROM workspaces on, and the keyboard: arrows, Home/End, Enter, Escape.
 */
export function WorkspaceSelector() {
  const { workspaces, currentWorkspaceId, selectWorkspace, isLoading } = useWorkspace();
  const { t } = useTranslation();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const empty = workspaces.length === 0;
  const current = workspaces.find((workspace) => workspace.id === currentWorkspaceId);
  const searchable = workspaces.length >= SEARCH_FROM;

  const shown = useMemo(() => {
    const needle = query.trim().toLocaleLowerCase();
    return needle
      ? workspaces.filter((workspace) => workspace.name.toLocaleLowerCase().includes(needle))
      : workspaces;
  }, [query, workspaces]);

  const optionId = (index: number) => `${listId}-option-${index}`;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      setQuery('');
      const index = workspaces.findIndex((workspace) => workspace.id === currentWorkspaceId);
      setActive(Math.max(index, 0));
    }
  }

  function choose(workspace: Workspace | undefined) {
    if (!workspace) return;
    selectWorkspace(workspace.id);
    setOpen(false);
  }

  function moveTo(index: number) {
    setActive(index);
    document.getElementById(optionId(index))?.scrollIntoView?.({ block: 'nearest' });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const last = shown.length - 1;
    if (event.key === 'ArrowDown') moveTo(active >= last ? 0 : active + 1);
    else if (event.key === 'ArrowUp') moveTo(active <= 0 ? last : active - 1);
    else if (event.key === 'Home' && !searchable) moveTo(0);
    else if (event.key === 'End' && !searchable) moveTo(last);
    else if (event.key === 'Enter') choose(shown[active]);
    else return;
    event.preventDefault();
  }

  const label = empty
    ? isLoading
      ? t('common.loading')
      : t('shell.workspace.none')
    : (current?.name ?? t('shell.workspace.placeholder'));

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger
        className={styles.trigger}
        disabled={empty || isLoading}
        aria-haspopup="listbox"
        title={current?.name} // a long name is cut in the button: the title shows it whole
      >
        {current && <WorkspaceMark workspace={current} />}
        <span className="wk-sr-only">{t('shell.workspace.label')}: </span>
        <span className={styles.triggerText}>{label}</span>
        <Icon size={16} className={styles.chevron}>
          <path d="m7 15 5 5 5-5M7 9l5-5 5 5" />
        </Icon>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className={styles.menu}
          align="end"
          sideOffset={6}
          collisionPadding={8}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            (searchable ? searchRef.current : listRef.current)?.focus();
          }}
          onKeyDown={onKeyDown}
        >
          {searchable && (
            <div className={styles.searchRow}>
              <Icon size={16} className={styles.searchIcon}>
                <circle cx="11" cy="11" r="7" />
                <path d="m21 21-4.3-4.3" />
              </Icon>
              <input
                ref={searchRef}
                type="search"
                className={styles.search}
                placeholder={t('shell.workspace.search')}
                aria-label={t('shell.workspace.search')}
                role="combobox"
                aria-expanded="true"
                aria-controls={listId}
                aria-autocomplete="list"
                aria-activedescendant={shown.length > 0 ? optionId(active) : undefined}
                value={query}
                onChange={(event) => {
                  setQuery(event.target.value);
                  setActive(0);
                }}
              />
            </div>
          )}
          <ul
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label={t('shell.workspace.placeholder')}
            tabIndex={searchable ? -1 : 0}
            aria-activedescendant={!searchable && shown.length > 0 ? optionId(active) : undefined}
            className={styles.list}
          >
            {shown.map((workspace, index) => (
              <li
                key={workspace.id}
                id={optionId(index)}
                role="option"
                aria-selected={workspace.id === currentWorkspaceId}
                data-active={index === active}
                data-workspace-id={workspace.id}
                className={styles.option}
                title={workspace.name}
                onMouseMove={() => index !== active && setActive(index)}
                onClick={() => choose(workspace)}
              >
                <WorkspaceMark workspace={workspace} />
                <span className={styles.optionName}>{workspace.name}</span>
                {workspace.id === currentWorkspaceId && (
                  <Icon size={16} className={styles.check}>
                    <path d="M20 6 9 17l-5-5" />
                  </Icon>
                )}
              </li>
            ))}
          </ul>
          {shown.length === 0 && <p className={styles.noMatch}>{t('shell.workspace.noMatch')}</p>}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
