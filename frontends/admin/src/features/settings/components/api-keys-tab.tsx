import { useId, useState, type FormEvent } from 'react';
import {
  DEFAULT_MODEL_BY_CONTENT_TYPE,
  MODELS_BY_CONTENT_TYPE,
  maskSecret,
  type ContentType,
  type Workspace,
} from '@aict/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Label,
  Select,
  Skeleton,
  errorMessage,
  toast,
  useSession,
  useWorkspace,
} from '@aict/web-kit';
import { KeyIcon } from '../../../lib/icons';
import { useApiKey } from '../api/get-api-key';
import { useDefaultModel } from '../api/get-default-model';
import { useModels } from '../api/get-models';
import { useTestConnection } from '../api/test-connection';
import { useUpdateApiKey } from '../api/update-api-key';
import { useUpdateDefaultModel } from '../api/update-default-model';
import styles from './settings.module.css';

/** The API keys tab: the provider key (of the current workspace, else the global one) and the default models. */
export function ApiKeysTab() {
  const { user } = useSession();
  const { currentWorkspace } = useWorkspace();
  const [showGlobal, setShowGlobal] = useState(false);
  const globalId = useId();
  // Super admins manage the global key too; with a workspace selected (always, in practice:
  // workspace 1 cannot be deleted) it sits behind a toggle, below the workspace's key.
  const canManageGlobal = user?.isSuperAdmin === true && currentWorkspace !== null;
  return (
    <div className={styles.stack}>
      {/* a new form per workspace: a half-typed key never moves to another workspace */}
      <ApiKeyCard key={currentWorkspace?.id ?? 'global'} workspace={currentWorkspace} />
      {canManageGlobal && (
        <div>
          <Button
            variant="link"
            aria-expanded={showGlobal}
            aria-controls={globalId}
            onClick={() => setShowGlobal((shown) => !shown)}
          >
            {showGlobal ? 'Hide the global API key' : 'Manage the global API key'}
          </Button>
          <div id={globalId} hidden={!showGlobal} className={styles.dialogSection}>
            {showGlobal && <ApiKeyCard workspace={null} />}
          </div>
        </div>
      )}
      <DefaultModelsCard />
    </div>
  );
}

/**
 * How a stored key is shown: as the server returns it, masked ('sk-…wxyz'). A value that does
 * not look masked is masked here too, so a key is never on screen in full.
 */
export function displayKey(value: string): string {
  return /[…•*]/.test(value) ? value : maskSecret(value);
}

function ApiKeyCard({ workspace: currentWorkspace }: { workspace: Workspace | null }) {
  const currentWorkspaceId = currentWorkspace?.id ?? null;
  const scope = currentWorkspace ? 'Workspace' : 'Global';
  const stored = useApiKey(currentWorkspaceId);
  const update = useUpdateApiKey();
  const test = useTestConnection();
  const [value, setValue] = useState('');
  const inputId = useId();
  const hintId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const key = value.trim();
    if (!key) return;
    update.mutate(
      { workspaceId: currentWorkspaceId, value: key },
      {
        onSuccess: () => {
          setValue('');
          toast({
            title: 'API Key Updated',
            description: currentWorkspace
              ? `The API key of ${currentWorkspace.name} has been saved.`
              : 'The global API key has been saved.',
          });
        },
        onError: (error) =>
          toast({
            title: 'Failed to update API key',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  };

  const onTest = () =>
    test.mutate(currentWorkspaceId, {
      onSuccess: (result) =>
        result.success
          ? toast({ title: 'Connection Successful', description: result.message })
          : toast({
              title: 'Connection Failed',
              description: result.message,
              variant: 'destructive',
            }),
      onError: (error) =>
        toast({
          title: 'Connection Test Failed',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {currentWorkspace ? `${currentWorkspace.name} API Key` : 'Global API Key'}
        </CardTitle>
        <CardDescription>
          {currentWorkspace
            ? `The OpenAI API key used for generation in ${currentWorkspace.name}. Without one, the global key is used.`
            : 'The OpenAI API key used by every workspace that has no key of its own.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className={styles.form} onSubmit={onSubmit}>
          <StoredKey
            isPending={stored.isPending}
            error={stored.error}
            value={stored.data?.value ?? null}
            inherited={currentWorkspace !== null && stored.data?.scope === 'global'}
            forWorkspace={currentWorkspace !== null}
          />
          <div className={styles.field}>
            <Label htmlFor={inputId}>{scope} API Key</Label>
            <Input
              id={inputId}
              name="apiKey"
              type="password"
              placeholder="sk-..."
              autoComplete="off"
              spellCheck={false}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              aria-describedby={hintId}
            />
            <p id={hintId} className={styles.hint}>
              The saved key is never shown again in full; enter a new one to replace it.
            </p>
          </div>
          <div className={styles.buttons}>
            <Button type="submit" disabled={!value.trim() || update.isPending}>
              <KeyIcon />
              {update.isPending ? 'Saving...' : `Save ${scope} API Key`}
            </Button>
            <Button variant="outline" onClick={onTest} disabled={test.isPending}>
              {test.isPending ? 'Testing...' : 'Test Connection'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function StoredKey({
  isPending,
  error,
  value,
  inherited,
  forWorkspace,
}: {
  isPending: boolean;
  error: Error | null;
  value: string | null;
  inherited: boolean;
  forWorkspace: boolean;
}) {
  if (isPending) return <Skeleton className={styles.skeletonLine} />;
  if (error) {
    return (
      <p className={styles.current} role="alert">
        Could not load the current key: {errorMessage(error)}
      </p>
    );
  }
  if (!value) {
    return (
      <p className={styles.current}>
        {forWorkspace
          ? 'No API key is set for this workspace; the global key is used if there is one.'
          : 'No global API key is set.'}
      </p>
    );
  }
  return (
    <p className={styles.current}>
      <span>{inherited ? 'Using the global key:' : 'Current key:'}</span>
      <span className={styles.mono} data-testid="stored-key">
        {displayKey(value)}
      </span>
    </p>
  );
}

function DefaultModelsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Default Models</CardTitle>
        <CardDescription>The models used when a prompt or a generation names none.</CardDescription>
      </CardHeader>
      <CardContent className={styles.form}>
        <DefaultModelField contentType="text" />
        <DefaultModelField contentType="image" />
      </CardContent>
    </Card>
  );
}

function DefaultModelField({ contentType }: { contentType: ContentType }) {
  const label = contentType === 'text' ? 'Default Text Model' : 'Default Image Model';
  const models = useModels(contentType);
  const stored = useDefaultModel(contentType);
  const update = useUpdateDefaultModel();
  const [choice, setChoice] = useState<string | null>(null);
  const id = useId();

  const options: readonly string[] = models.data?.length
    ? models.data
    : MODELS_BY_CONTENT_TYPE[contentType];
  const current = stored.data ?? DEFAULT_MODEL_BY_CONTENT_TYPE[contentType];
  const selected = choice ?? current;
  const loading = stored.isPending || models.isPending;

  const onSave = () =>
    update.mutate(
      { contentType, value: selected },
      {
        onSuccess: () => {
          setChoice(null);
          toast({ title: 'Default Model Updated', description: `${label}: ${selected}.` });
        },
        onError: (error) =>
          toast({
            title: `Failed to update default ${contentType} model`,
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );

  return (
    <div className={styles.modelRow}>
      <div className={styles.field}>
        <Label htmlFor={id}>{label}</Label>
        <Select
          id={id}
          value={selected}
          disabled={loading}
          onChange={(event) => setChoice(event.target.value)}
        >
          {[...new Set([...options, current])].map((model) => (
            <option key={model} value={model}>
              {model}
            </option>
          ))}
        </Select>
      </div>
      <Button
        variant="secondary"
        onClick={onSave}
        disabled={loading || selected === current || update.isPending}
      >
        {update.isPending ? 'Saving...' : `Save ${label}`}
      </Button>
    </div>
  );
}
