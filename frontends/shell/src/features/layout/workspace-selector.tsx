import { useId } from 'react';
import { Select, useTranslation, useWorkspace } from '@aict/web-kit';
import styles from './header.module.css';

/** The current-workspace picker: 'No workspaces' when there are none, else 'Select workspace'. */
export function WorkspaceSelector() {
  const { workspaces, currentWorkspaceId, selectWorkspace, isLoading } = useWorkspace();
  const id = useId();
  const { t } = useTranslation();
  const empty = workspaces.length === 0;
  const current = workspaces.find((workspace) => workspace.id === currentWorkspaceId);
  return (
    <div className={styles.selector}>
      <label htmlFor={id} className="wk-sr-only">
        {t('shell.workspace.label')}
      </label>
      <Select
        id={id}
        value={currentWorkspaceId === null ? '' : String(currentWorkspaceId)}
        disabled={empty || isLoading}
        title={current?.name} // a long name is cut in the box: the title shows it whole
        onChange={(event) => {
          if (event.target.value) selectWorkspace(Number(event.target.value));
        }}
      >
        {empty ? (
          <option value="">{isLoading ? t('common.loading') : t('shell.workspace.none')}</option>
        ) : (
          <>
            <option value="" disabled>
              {t('shell.workspace.placeholder')}
            </option>
            {workspaces.map((workspace) => (
              <option key={workspace.id} value={String(workspace.id)}>
                {workspace.name}
              </option>
            ))}
          </>
        )}
      </Select>
    </div>
  );
}
