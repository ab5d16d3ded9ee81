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
  useTranslation,
  useWorkspace,
  KeyIcon,
} from '@aict/web-kit';
import { useApiKey } from '../api/get-api-key';
import { useDefaultModel } from '../api/get-default-model';
import { useModels } from '../api/get-models';
import { useTestConnection } from '../api/test-connection';
import { useUpdateApiKey } from '../api/update-api-key';
import { useUpdateDefaultModel } from '../api/update-default-model';
import { BrandVoiceCard } from './brand-voice-card';
import styles from './settings.module.css';

/** The API keys tab: the provider key (of the current workspace, else the global one) and the default models. */
export function ApiKeysTab() {
  const { user } = useSession();
  const { currentWorkspace } = useWorkspace();
  const { t } = useTranslation();
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
            {showGlobal ? t('admin.apiKeys.hideGlobal') : t('admin.apiKeys.showGlobal')}
          </Button>
          <div id={globalId} hidden={!showGlobal} className={styles.dialogSection}>
            {showGlobal && <ApiKeyCard workspace={null} />}
          </div>
        </div>
      )}
      <DefaultModelsCard />
      {currentWorkspace && (
        <BrandVoiceCard key={`voice-${currentWorkspace.id}`} workspace={currentWorkspace} />
      )}
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
  const { t } = useTranslation();
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
            title: t('admin.apiKeys.updated'),
            description: currentWorkspace
              ? t('admin.apiKeys.updatedWorkspace', { name: currentWorkspace.name })
              : t('admin.apiKeys.updatedGlobal'),
          });
        },
        onError: (error) =>
          toast({
            title: t('admin.apiKeys.updateFailed'),
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
          ? toast({ title: t('admin.apiKeys.connectionSuccessful'), description: result.message })
          : toast({
              title: t('admin.apiKeys.connectionFailed'),
              description: result.message,
              variant: 'destructive',
            }),
      onError: (error) =>
        toast({
          title: t('admin.apiKeys.connectionTestFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {currentWorkspace
            ? t('admin.apiKeys.workspaceTitle', { name: currentWorkspace.name })
            : t('admin.apiKeys.globalTitle')}
        </CardTitle>
        <CardDescription>
          {currentWorkspace
            ? t('admin.apiKeys.workspaceText', { name: currentWorkspace.name })
            : t('admin.apiKeys.globalText')}
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
            <Label htmlFor={inputId}>
              {currentWorkspace
                ? t('admin.apiKeys.fieldWorkspace')
                : t('admin.apiKeys.fieldGlobal')}
            </Label>
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
              {t('admin.apiKeys.hint')}
            </p>
          </div>
          <div className={styles.buttons}>
            <Button type="submit" disabled={!value.trim() || update.isPending}>
              <KeyIcon />
              {update.isPending
                ? t('admin.saving')
                : currentWorkspace
                  ? t('admin.apiKeys.saveWorkspace')
                  : t('admin.apiKeys.saveGlobal')}
            </Button>
            <Button variant="outline" onClick={onTest} disabled={test.isPending}>
              {test.isPending ? t('admin.apiKeys.testing') : t('admin.apiKeys.testConnection')}
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
  const { t } = useTranslation();
  if (isPending) return <Skeleton className={styles.skeletonLine} />;
  if (error) {
    return (
      <p className={styles.current} role="alert">
        {t('admin.apiKeys.loadFailed', { message: errorMessage(error) })}
      </p>
    );
  }
  if (!value) {
    return (
      <p className={styles.current}>
        {forWorkspace ? t('admin.apiKeys.noneWorkspace') : t('admin.apiKeys.noneGlobal')}
      </p>
    );
  }
  return (
    <p className={styles.current}>
      <span>{inherited ? t('admin.apiKeys.usingGlobal') : t('admin.apiKeys.current')}</span>
      <span className={styles.mono} data-testid="stored-key">
        {displayKey(value)}
      </span>
    </p>
  );
}

function DefaultModelsCard() {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('admin.apiKeys.modelsTitle')}</CardTitle>
        <CardDescription>{t('admin.apiKeys.modelsText')}</CardDescription>
      </CardHeader>
      <CardContent className={styles.form}>
        <DefaultModelField contentType="text" />
        <DefaultModelField contentType="image" />
      </CardContent>
    </Card>
  );
}

function DefaultModelField({ contentType }: { contentType: ContentType }) {
  const { t } = useTranslation();
  const label = t(`admin.apiKeys.model_${contentType}`);
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
          toast({
            title: t('admin.apiKeys.modelUpdated'),
            description: t('admin.apiKeys.modelUpdatedText', { label, model: selected }),
          });
        },
        onError: (error) =>
          toast({
            title: t(`admin.apiKeys.modelFailed_${contentType}`),
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
        {update.isPending ? t('admin.saving') : t(`admin.apiKeys.save_${contentType}`)}
      </Button>
    </div>
  );
}
