import { useId } from 'react';
import { Select, useWorkspace } from '@aict/web-kit';
import styles from './header.module.css';

/** The current-workspace picker: 'No workspaces' when there are none, else 'Select workspace'. */
export function WorkspaceSelector() {
  const { workspaces, currentWorkspaceId, selectWorkspace, isLoading } = useWorkspace();
  const id = useId();
  const empty = workspaces.length === 0;
  return (
    <div className={styles.selector}>
      <label htmlFor={id} className="wk-sr-only">
        Workspace
      </label>
      <Select
        id={id}
        value={currentWorkspaceId === null ? '' : String(currentWorkspaceId)}
        disabled={empty || isLoading}
        onChange={(event) => {
          if (event.target.value) selectWorkspace(Number(event.target.value));
        }}
      >
        {empty ? (
          <option value="">{isLoading ? 'Loading…' : 'No workspaces'}</option>
        ) : (
          <>
            <option value="" disabled>
              Select workspace
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
