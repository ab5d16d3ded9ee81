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
  useWorkspace,
} from '@aict/web-kit';
import { ArrowLeftIcon, SparklesIcon } from '../../../lib/icons';
import layout from '../../../lib/layout.module.css';
import { PromptNotFoundError, usePrompt } from '../api/get-prompt';
import { useUpdatePrompt } from '../api/update-prompt';
import { canEditPrompt, canPublishPrompt } from '@aict/web-kit';
import { PromptDetails } from './prompt-details';
import { PromptForm, type PromptFormValues } from './prompt-form';
import { ReferenceImagesCard } from './reference-images-card';
import styles from './prompts.module.css';

/** /prompts/{id} (SPEC §2): details and, for admins and the creator, the edit tab. */
export function PromptDetailPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const { currentWorkspaceId, isLoading } = useWorkspace();
  const ready = !session.isLoading && !isLoading;
  const query = usePrompt(id, currentWorkspaceId, ready && id !== '');

  if (!ready || (query.isPending && query.fetchStatus !== 'idle')) {
    return (
      <div className={layout.centered}>
        <Spinner size="lg" label="Loading prompt" />
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
  usePageTitle('Prompt Not Found');
  return (
    <div className={layout.page}>
      <Card role="alert">
        <CardHeader>
          <CardTitle>Prompt Not Found</CardTitle>
          <CardDescription>
            The prompt you are looking for does not exist or you do not have access to it.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Link to={isAdmin ? '/prompts' : '/'} className={buttonClass({ variant: 'outline' })}>
            <ArrowLeftIcon />
            {isAdmin ? 'Back to Prompts' : 'Go Home'}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}

function LoadError({ retry }: { retry: () => void }) {
  usePageTitle('Prompt Details');
  return (
    <div className={layout.page}>
      <Card role="alert">
        <CardHeader>
          <CardTitle>Failed to fetch prompt details</CardTitle>
          <CardDescription>Check your connection and try again.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={retry}>
            Try again
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
  const [tab, setTab] = useState<Tab>('details');
  const update = useUpdatePrompt();
  const editable = canEditPrompt(user, prompt, { isAdmin, currentWorkspaceId });
  const current: Tab = editable ? tab : 'details';
  const full = isFullPrompt(prompt) ? prompt : null;
  const generate =
    prompt.contentType === 'image'
      ? { to: '/image-generation', label: 'Generate Image' }
      : { to: '/text-generation', label: 'Generate Text' };

  const save = (body: UpdatePromptBody) =>
    update.mutate(
      { id: prompt.id, body },
      {
        onSuccess: () => {
          setTab('details');
          toast({ title: 'Prompt updated successfully', variant: 'success' });
        },
        onError: (error) =>
          toast({
            title: 'Failed to update prompt',
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
              Back to Prompts
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
            <TabsList aria-label="Prompt">
              <TabsTrigger value="details">Prompt Details</TabsTrigger>
              <TabsTrigger value="edit">Edit Prompt</TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="details">
            <PromptDetails prompt={prompt} isAdmin={isAdmin} />
          </TabsContent>
          <TabsContent value="edit" className={styles.stack}>
            <Card>
              <CardContent>
                <PromptForm
                  initial={formValues(prompt)}
                  // Admins have the whole prompt; a creator who is not an admin never
                  // receives the template, so it is left as stored.
                  schema={full ? CreatePromptBody : UpdatePromptBody}
                  withTemplate={full !== null}
                  withDefault={isAdmin}
                  withPublic={canPublishPrompt(user)}
                  // the prompt stays in its own workspace (null: none)
                  workspaceId={prompt.workspaceId ?? null}
                  pending={update.isPending}
                  submitLabel="Save Changes"
                  pendingLabel="Saving..."
                  onSubmit={save}
                  cancel={
                    <Button variant="outline" onClick={() => setTab('details')}>
                      Cancel
                    </Button>
                  }
                />
              </CardContent>
            </Card>
            {full && full.contentType === 'image' && full.model === GPT_IMAGE_MODEL && (
              <ReferenceImagesCard prompt={full} workspaceId={currentWorkspaceId} />
            )}
          </TabsContent>
        </Tabs>
      )}
    </Page>
  );
}
