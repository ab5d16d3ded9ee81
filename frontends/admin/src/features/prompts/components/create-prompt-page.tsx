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
  return (
    <RequireAdmin message="Only administrators can create new prompts.">
      <CreatePromptForm />
    </RequireAdmin>
  );
}

function CreatePromptForm() {
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const { user } = useSession();
  const navigate = useNavigate();
  const create = useCreatePrompt();

  const onSubmit = (body: CreatePromptBody) =>
    create.mutate(body, {
      onSuccess: (prompt) => {
        navigate(`/prompts/${encodeURIComponent(prompt.id)}`);
        toast({ title: 'Prompt created successfully', variant: 'success' });
      },
      onError: (error) =>
        toast({
          title: 'Failed to create prompt',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });

  return (
    <Page title="Create Prompt" description="A reusable prompt template for this workspace.">
      <Card>
        <CardContent>
          <PromptForm
            schema={CreatePromptBody}
            workspaceId={currentWorkspaceId}
            withDefault={isAdmin}
            withPublic={canPublishPrompt(user)}
            pending={create.isPending}
            submitLabel="Create Prompt"
            pendingLabel="Creating..."
            onSubmit={onSubmit}
            cancel={
              <Link to="/prompts" className={buttonClass({ variant: 'outline' })}>
                Cancel
              </Link>
            }
          />
        </CardContent>
      </Card>
    </Page>
  );
}
