import { useId, useState, type FormEvent } from 'react';
import { CreateWorkspaceBody, type Workspace } from '@aict/contracts';
import {
  Button,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  FieldError,
  Label,
  TextField,
  Textarea,
  fieldErrors,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import styles from './settings.module.css';

/** What the dialog is doing: creating a workspace, or editing `workspace`. */
export type WorkspaceDialogMode = { kind: 'create' } | { kind: 'edit'; workspace: Workspace };

/**
 * Create or edit a workspace (name required, description optional). The save button shows
 * its pending state; the provider's mutations raise the toasts.
 */
export function WorkspaceDialog({
  mode,
  onClose,
}: {
  mode: WorkspaceDialogMode | null;
  onClose: () => void;
}) {
  const { createWorkspace, updateWorkspace } = useWorkspace();
  const pending = createWorkspace.isPending || updateWorkspace.isPending;
  const key = mode ? (mode.kind === 'edit' ? `edit-${mode.workspace.id}` : 'create') : 'closed';
  return (
    <Dialog open={mode !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      {mode && <WorkspaceForm key={key} mode={mode} onClose={onClose} />}
    </Dialog>
  );
}

function WorkspaceForm({ mode, onClose }: { mode: WorkspaceDialogMode; onClose: () => void }) {
  const { createWorkspace, updateWorkspace } = useWorkspace();
  const { t } = useTranslation();
  const editing = mode.kind === 'edit' ? mode.workspace : null;
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const descriptionId = useId();
  const pending = createWorkspace.isPending || updateWorkspace.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = CreateWorkspaceBody.safeParse({ name, description });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    const body = { name: parsed.data.name, description: parsed.data.description ?? '' };
    if (editing) updateWorkspace.mutate({ id: editing.id, ...body }, { onSuccess: onClose });
    else createWorkspace.mutate(body, { onSuccess: onClose });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>
          {editing ? t('admin.workspaces.editTitle') : t('admin.workspaces.create')}
        </DialogTitle>
        <DialogDescription>
          {editing
            ? t('admin.workspaces.editText', { name: editing.name })
            : t('admin.workspaces.createText')}
        </DialogDescription>
      </DialogHeader>
      <div className={styles.form}>
        <TextField
          label={t('admin.workspaces.name')}
          name="name"
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
          required
        />
        <div className={styles.field}>
          <Label htmlFor={descriptionId}>{t('admin.workspaces.description')}</Label>
          <Textarea
            id={descriptionId}
            name="description"
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? `${descriptionId}-error` : undefined}
          />
          <FieldError id={`${descriptionId}-error`}>{errors.description}</FieldError>
        </div>
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={pending}>
          {t('admin.cancel')}
        </Button>
        <Button type="submit" disabled={pending}>
          {editing
            ? updateWorkspace.isPending
              ? t('admin.saving')
              : t('admin.saveChanges')
            : createWorkspace.isPending
              ? t('admin.workspaces.creating')
              : t('admin.workspaces.create')}
        </Button>
      </DialogFooter>
    </form>
  );
}
