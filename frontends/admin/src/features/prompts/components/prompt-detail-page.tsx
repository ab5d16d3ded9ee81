import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  CreatePromptBody,
  GPT_IMAGE_MODEL,
  isFullPrompt,
  UpdatePromptBody,
  type PromptView,
} from '@aict/contracts';
import {
  Button,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  errorMessage,
  Page,
  Spinner,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
  usePageTitle,
  useSession,
  useTranslation,
  useWorkspace,
  ArrowLeftIcon,
  SparklesIcon,
} from '@aict/web-kit';
import layout from '../../../lib/layout.module.css';
import { PromptNotFoundError, usePrompt } from '../api/get-prompt';
import { useUpdatePrompt } from '../api/update-prompt';
import { canEditPrompt, canPublishPrompt } from '@aict/web-kit';
import { PromptDetails } from './prompt-details';
import { PromptForm, type PromptFormValues } from './prompt-form';
import { PromptResultsCard } from './prompt-results-card';
import { PromptVersionsCard } from './prompt-versions-card';
import { ReferenceImagesCard } from './reference-images-card';
import styles from './prompts.module.css';

/** /prompts/{id} (SPEC §2): details and, for admins and the creator, the edit tab. */
export function PromptDetailPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const { t } = useTranslation();
  const { currentWorkspaceId, isLoading } = useWorkspace();
  const ready = !session.isLoading && !isLoading;
  const query = usePrompt(id, currentWorkspaceId, ready && id !== '');

  if (!ready || (query.isPending && query.fetchStatus !== 'idle')) {
    return (
      <div className={layout.centered}>
        <Spinner size="lg" label={t('admin.detail.loading')} />
      </div>
    );
  }
  if (query.data) return <PromptScreen prompt={query.data} />;
  if (query.error && !(query.error instanceof PromptNotFoundError)) {
    return <LoadError retry={() => void query.refetch()} />;
  }
  return <PromptNotFound />;
}

function PromptNotFound() {
  const { isAdmin } = useWorkspace();
  const { t } = useTranslation();
  usePageTitle(t('admin.detail.notFound'));
  return (
    <div className={layout.page}>
      <Card role="alert">
        <CardHeader>
          <CardTitle>{t('admin.detail.notFound')}</CardTitle>
          <CardDescription>{t('admin.detail.notFoundText')}</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to={isAdmin ? '/prompts' : '/'} className={buttonClass({ variant: 'outline' })}>
            <ArrowLeftIcon />
            {isAdmin ? t('admin.detail.backToPrompts') : t('admin.detail.goHome')}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}

function LoadError({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  usePageTitle(t('admin.detail.pageTitle'));
  return (
    <div className={layout.page}>
      <Card role="alert">
        <CardHeader>
          <CardTitle>{t('admin.detail.fetchFailed')}</CardTitle>
          <CardDescription>{t('admin.prompts.fetchFailedText')}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={retry}>
            {t('admin.prompts.tryAgain')}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

const formValues = (prompt: PromptView): PromptFormValues => ({
  name: prompt.name,
  description: prompt.description ?? '',
  template: isFullPrompt(prompt) ? prompt.template : '',
  category: prompt.category,
  contentType: prompt.contentType,
  model: prompt.model,
  isPublic: prompt.isPublic,
  isDefault: prompt.isDefault,
});

type Tab = 'details' | 'edit';

function PromptScreen({ prompt }: { prompt: PromptView }) {
  const { user } = useSession();
  const { isAdmin, currentWorkspaceId } = useWorkspace();
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('details');
  // A restored version remounts the form with the restored fields (the answer itself: the
  // cached prompt reaches this component a moment later).
  const [restored, setRestored] = useState<{ key: number; prompt: PromptView } | null>(null);
  const update = useUpdatePrompt();
  const editable = canEditPrompt(user, prompt, { isAdmin, currentWorkspaceId });
  const current: Tab = editable ? tab : 'details';
  const full = isFullPrompt(prompt) ? prompt : null;
  const generate =
    prompt.contentType === 'image'
      ? { to: '/image-generation', label: t('admin.detail.generateImage') }
      : { to: '/text-generation', label: t('admin.detail.generateText') };

  const save = (body: UpdatePromptBody) =>
    update.mutate(
      { id: prompt.id, body },
      {
        onSuccess: () => {
          setTab('details');
          toast({ title: t('admin.detail.updated'), variant: 'success' });
        },
        onError: (error) =>
          toast({
            title: t('admin.detail.updateFailed'),
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );

  return (
    <Page
      title={prompt.name}
      description={isAdmin ? prompt.description : undefined}
      actions={
        <>
          {isAdmin && (
            <Link to="/prompts" className={buttonClass({ variant: 'outline' })}>
              <ArrowLeftIcon />
              {t('admin.detail.backToPrompts')}
            </Link>
          )}
          <Link
            to={`${generate.to}?promptId=${encodeURIComponent(prompt.id)}`}
            className={buttonClass()}
          >
            <SparklesIcon />
            {generate.label}
          </Link>
        </>
      }
    >
      {/* Who may not edit sees the details alone: a single tab would lead nowhere. */}
      {!editable && <PromptDetails prompt={prompt} isAdmin={isAdmin} />}
      {editable && (
        <Tabs value={current} onValueChange={(value) => setTab(value as Tab)}>
          <div className={styles.tabsList}>
            <TabsList aria-label={t('admin.detail.tabs')}>
              <TabsTrigger value="details">{t('admin.detail.detailsTab')}</TabsTrigger>
              <TabsTrigger value="edit">{t('admin.detail.editTab')}</TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="details">
            <PromptDetails prompt={prompt} isAdmin={isAdmin} />
          </TabsContent>
          <TabsContent value="edit" className={styles.stack}>
            <Card>
              <CardContent>
                <PromptForm
                  key={restored?.key ?? 0}
                  initial={formValues(restored?.prompt ?? prompt)}
                  // Admins have the whole prompt; a creator who is not an admin never
                  // receives the template, so it is left as stored.
                  schema={full ? CreatePromptBody : UpdatePromptBody}
                  withTemplate={full !== null}
                  withDefault={isAdmin}
                  withPublic={canPublishPrompt(user)}
                  // the prompt stays in its own workspace (null: none)
                  workspaceId={prompt.workspaceId ?? null}
                  pending={update.isPending}
                  submitLabel={t('admin.saveChanges')}
                  pendingLabel={t('admin.saving')}
                  onSubmit={save}
                  cancel={
                    <Button variant="outline" onClick={() => setTab('details')}>
                      {t('admin.cancel')}
                    </Button>
                  }
                />
              </CardContent>
            </Card>
            {full && full.contentType === 'image' && full.model === GPT_IMAGE_MODEL && (
              <ReferenceImagesCard prompt={full} workspaceId={currentWorkspaceId} />
            )}
            {/* Versions and results: admins of the prompt's own workspace and super admins. */}
            {full &&
              (user?.isSuperAdmin || (isAdmin && full.workspaceId === currentWorkspaceId)) && (
                <>
                  <PromptVersionsCard
                    prompt={full}
                    workspaceId={currentWorkspaceId}
                    onRestored={(next) =>
                      setRestored((last) => ({ key: (last?.key ?? 0) + 1, prompt: next }))
                    }
                  />
                  <PromptResultsCard prompt={full} workspaceId={currentWorkspaceId} />
                </>
              )}
          </TabsContent>
        </Tabs>
      )}
    </Page>
  );
}
