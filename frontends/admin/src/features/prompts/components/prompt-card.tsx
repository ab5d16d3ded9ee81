import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { PromptView } from '@aict/contracts';
import {
  Badge,
  Button,
  buttonClass,
  Card,
  errorMessage,
  Skeleton,
  toast,
  useSession,
  useTranslation,
  useWorkspace,
  EditIcon,
  PlayIcon,
  TrashIcon,
} from '@aict/web-kit';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { useDeletePrompt } from '../api/delete-prompt';
import { CategoryBadge, ContentTypeBadge } from './category-badge';
import { canDeletePrompt, isCreator } from '@aict/web-kit';
import styles from './prompts.module.css';

/**
 * One prompt of the list (SPEC §2): name (a link to it), category in its colour, type, model,
 * 'Created by you' or 'Public prompt', and Edit, Run and (for its creator or an admin)
 * Delete with its confirmation.
 */
export function PromptCard({ prompt }: { prompt: PromptView }) {
  const { user } = useSession();
  const { isAdmin, currentWorkspaceId } = useWorkspace();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const href = `/prompts/${encodeURIComponent(prompt.id)}`;
  const titleId = `prompt-${prompt.id}-title`;

  return (
    <Card className={styles.card} aria-labelledby={titleId} role="article">
      <div className={styles.cardHeader}>
        <div className={styles.cardTitleRow}>
          <h2 id={titleId} className={styles.cardTitle}>
            <Link to={href}>{prompt.name}</Link>
          </h2>
          {prompt.isDefault && <Badge variant="success">{t('admin.prompts.default')}</Badge>}
        </div>
        <div className={styles.meta}>
          <CategoryBadge category={prompt.category} />
          <ContentTypeBadge contentType={prompt.contentType} />
          <span>{prompt.model}</span>
        </div>
      </div>
      <div className={styles.cardBody}>
        {prompt.description && <p className={styles.clamp}>{prompt.description}</p>}
        <p className={styles.owner}>
          {isCreator(user, prompt)
            ? t('admin.prompts.createdByYou')
            : t('admin.prompts.publicPrompt')}
        </p>
      </div>
      <div className={styles.cardFooter}>
        <Link
          to={href}
          className={buttonClass({ variant: 'outline', size: 'sm' })}
          aria-label={t('admin.prompts.editName', { name: prompt.name })}
        >
          <EditIcon />
          {t('admin.prompts.edit')}
        </Link>
        <Button
          size="sm"
          onClick={() => navigate(href)}
          aria-label={t('admin.prompts.runName', { name: prompt.name })}
        >
          <PlayIcon />
          {t('admin.prompts.run')}
        </Button>
        {canDeletePrompt(user, prompt, { isAdmin, currentWorkspaceId }) && (
          <DeletePromptButton prompt={prompt} />
        )}
      </div>
    </Card>
  );
}

function DeletePromptButton({ prompt }: { prompt: PromptView }) {
  const [open, setOpen] = useState(false);
  const remove = useDeletePrompt();
  const { t } = useTranslation();
  const confirm = () =>
    remove.mutate(prompt.id, {
      onSuccess: () => {
        setOpen(false);
        toast({ title: t('admin.prompts.deleted'), variant: 'success' });
      },
      onError: (error) => {
        setOpen(false);
        toast({
          title: t('admin.prompts.deleteFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        });
      },
    });
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={t('admin.prompts.deleteName', { name: prompt.name })}
      >
        <TrashIcon />
        {t('admin.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('admin.prompts.confirmTitle')}
        description={t('admin.prompts.confirmText')}
        pending={remove.isPending}
        onConfirm={confirm}
      />
    </>
  );
}

/** The placeholder of a card while the list loads. */
export function PromptCardSkeleton() {
  return (
    <Card className={styles.skeletonCard} data-testid="prompt-skeleton">
      <Skeleton className={styles.skeletonTitle} />
      <Skeleton className={styles.skeletonShort} />
      <Skeleton className={styles.skeletonLine} />
      <Skeleton className={styles.skeletonLine} />
      <Skeleton className={styles.skeletonButtons} />
    </Card>
  );
}
