import { useState, type FormEvent } from 'react';
import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_SCOPES,
  type ApiToken,
  type ApiTokenScope,
  type CreatedApiToken,
} from '@aict/contracts';
import {
  Button,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  CopyIcon,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  Input,
  Label,
  Page,
  Select,
  Spinner,
  errorMessage,
  toast,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';
import styles from './api-tokens.module.css';

const EXPIRY_DAYS = [7, API_TOKEN_DEFAULT_DAYS, 90, 365] as const;

/**
 * /api-tokens (every signed-in user, issue 17): create a personal token for one of your
 * workspaces with the actions it may do, see its secret once (with copy), list and revoke.
 */
export function ApiTokensPage() {
  const { t } = useTranslation();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  return (
    <Page title={t('apiTokens.title')} description={t('apiTokens.description')}>
      <div className={styles.stack}>
        <CreateTokenCard onCreated={setCreated} />
        <TokenList />
      </div>
      <CreatedTokenDialog token={created} onClose={() => setCreated(null)} />
    </Page>
  );
}

function CreateTokenCard({ onCreated }: { onCreated: (token: CreatedApiToken) => void }) {
  const { t } = useTranslation();
  const { workspaces, currentWorkspaceId } = useWorkspace();
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [workspaceId, setWorkspaceId] = useState<number | null>(null);
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['generate', 'read-contents']);
  const [days, setDays] = useState<number>(API_TOKEN_DEFAULT_DAYS);
  const chosenWorkspace = workspaceId ?? currentWorkspaceId ?? workspaces[0]?.id ?? null;

  const toggle = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) =>
      on ? [...new Set([...current, scope])] : current.filter((s) => s !== scope),
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (chosenWorkspace === null) return;
    create.mutate(
      { name, workspaceId: chosenWorkspace, scopes, expiresInDays: days },
      {
        onSuccess: (token) => {
          setName('');
          onCreated(token);
        },
        onError: (failure) =>
          toast({
            title: t('apiTokens.failed'),
            description: errorMessage(failure),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('apiTokens.create')}</CardTitle>
        {workspaces.length === 0 && <CardDescription>{t('apiTokens.noWorkspace')}</CardDescription>}
      </CardHeader>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <div className={styles.grid}>
          <div className={styles.field}>
            <Label htmlFor="api-token-name">{t('apiTokens.name')}</Label>
            <Input
              id="api-token-name"
              value={name}
              maxLength={100}
              placeholder={t('apiTokens.namePlaceholder')}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className={styles.field}>
            <Label htmlFor="api-token-workspace">{t('apiTokens.workspace')}</Label>
            <Select
              id="api-token-workspace"
              value={chosenWorkspace ?? ''}
              onChange={(e) => setWorkspaceId(Number(e.target.value) || null)}
            >
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </Select>
          </div>
          <div className={styles.field}>
            <Label htmlFor="api-token-expiry">{t('apiTokens.expiresIn')}</Label>
            <Select
              id="api-token-expiry"
              value={days}
              onChange={(e) => setDays(Number(e.target.value))}
            >
              {EXPIRY_DAYS.map((count) => (
                <option key={count} value={count}>
                  {t('apiTokens.days', { count })}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <fieldset className={styles.scopes}>
          <legend>{t('apiTokens.scopes')}</legend>
          {API_TOKEN_SCOPES.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
              {t(`apiTokens.scope_${scope}`)}
            </label>
          ))}
        </fieldset>
        <div>
          <Button type="submit" disabled={create.isPending || chosenWorkspace === null}>
            {create.isPending && <Spinner />}
            {t('apiTokens.create')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function TokenList() {
  const { t, i18n } = useTranslation();
  const { workspaces } = useWorkspace();
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language);
  const workspaceName = (id: number) => workspaces.find((w) => w.id === id)?.name ?? `#${id}`;

  const onRevoke = (token: ApiToken) =>
    revoke.mutate(token.id, {
      onSuccess: () =>
        toast({
          title: t('apiTokens.revoked'),
          description: t('apiTokens.revokedText', { name: token.name }),
        }),
      onError: (failure) =>
        toast({
          title: t('apiTokens.failed'),
          description: errorMessage(failure),
          variant: 'destructive',
        }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('apiTokens.listLabel')}</CardTitle>
      </CardHeader>
      {tokens.isPending ? (
        <div className={styles.empty}>
          <Spinner />
        </div>
      ) : tokens.isError ? (
        <p className={styles.empty} role="alert">
          {errorMessage(tokens.error)}
        </p>
      ) : tokens.data.length === 0 ? (
        <p className={styles.empty}>{t('apiTokens.empty')}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t('apiTokens.listLabel')}>
            <thead>
              <tr>
                <th>{t('apiTokens.columnName')}</th>
                <th>{t('apiTokens.columnWorkspace')}</th>
                <th>{t('apiTokens.columnScopes')}</th>
                <th>{t('apiTokens.columnExpires')}</th>
                <th>{t('apiTokens.columnLastUsed')}</th>
                <th>
                  <span className="wk-sr-only">{t('apiTokens.columnActions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <td>
                    {token.name} <span className={styles.hint}>{token.hint}…</span>
                  </td>
                  <td>{workspaceName(token.workspaceId)}</td>
                  <td>{token.scopes.map((s) => t(`apiTokens.scope_${s}`)).join(', ')}</td>
                  <td>
                    {Date.parse(token.expiresAt) <= Date.now()
                      ? t('apiTokens.expired')
                      : date(token.expiresAt)}
                  </td>
                  <td>{token.lastUsedAt ? date(token.lastUsedAt) : t('apiTokens.never')}</td>
                  <td>
                    <Button
                      variant="outline"
                      size="sm"
                      aria-label={t('apiTokens.revokeLabel', { name: token.name })}
                      disabled={revoke.isPending}
                      onClick={() => onRevoke(token)}
                    >
                      {t('apiTokens.revoke')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** The secret, shown once, with a copy button. */
function CreatedTokenDialog({
  token,
  onClose,
}: {
  token: CreatedApiToken | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  const copy = async () => {
    if (!token) return;
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
    } catch {
      toast({ title: t('apiTokens.copyFailed'), variant: 'destructive' });
    }
  };
  return (
    <Dialog open={token !== null} onOpenChange={(open) => !open && close()}>
      {token && (
        <>
          <DialogHeader>
            <DialogTitle>{t('apiTokens.created')}</DialogTitle>
            <DialogDescription>{t('apiTokens.createdText')}</DialogDescription>
          </DialogHeader>
          <div className={styles.secret}>
            <Input
              readOnly
              aria-label={t('apiTokens.created')}
              value={token.token}
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button type="button" variant="outline" onClick={() => void copy()}>
              <CopyIcon size={16} />
              {copied ? t('apiTokens.copied') : t('apiTokens.copy')}
            </Button>
          </div>
          <DialogFooter>
            <Button type="button" onClick={close}>
              {t('apiTokens.done')}
            </Button>
          </DialogFooter>
        </>
      )}
    </Dialog>
  );
}
