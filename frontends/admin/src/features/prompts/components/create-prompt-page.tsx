import { Link, useNavigate } from 'react-router-dom';
import { CreatePromptBody } from '@aict/contracts';
import {
  buttonClass,
  Card,
  CardContent,
  errorMessage,
  Page,
  toast,
  useSession,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import { RequireAdmin } from '../../../lib/admin-access';
import { useCreatePrompt } from '../api/create-prompt';
import { canPublishPrompt } from '@aict/web-kit';
import { PromptForm } from './prompt-form';

/**
 * /prompts/create (SPEC §2): the route sends anyone but an admin to / (App.tsx); inside, a
 * non-admin sees 'Admin Access Required' too. After creating, the new prompt's page opens.
 */
export function CreatePromptPage() {
  const { t } = useTranslation();
  return (
    <RequireAdmin message={t('admin.create.onlyAdmins')}>
      <CreatePromptForm />
    </RequireAdmin>
  );
}

function CreatePromptForm() {
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const { user } = useSession();
  const navigate = useNavigate();
  const create = useCreatePrompt();
  const { t } = useTranslation();

  const onSubmit = (body: CreatePromptBody) =>
    create.mutate(body, {
      onSuccess: (prompt) => {
        navigate(`/prompts/${encodeURIComponent(prompt.id)}`);
        toast({ title: t('admin.create.created'), variant: 'success' });
      },
      onError: (error) =>
        toast({
          title: t('admin.create.failed'),
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });

  return (
    <Page title={t('admin.create.title')} description={t('admin.create.description')}>
      <Card>
        <CardContent>
          <PromptForm
            schema={CreatePromptBody}
            workspaceId={currentWorkspaceId}
            withDefault={isAdmin}
            withPublic={canPublishPrompt(user)}
            pending={create.isPending}
            submitLabel={t('admin.create.submit')}
            pendingLabel={t('admin.create.pending')}
            onSubmit={onSubmit}
            cancel={
              <Link to="/prompts" className={buttonClass({ variant: 'outline' })}>
                {t('admin.cancel')}
              </Link>
            }
          />
        </CardContent>
      </Card>
    </Page>
  );
}
