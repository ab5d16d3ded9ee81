import { useId, useState, type FormEvent } from 'react';
import { BRAND_VOICE_LIMITS, BrandVoiceBody, type Workspace } from '@aict/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FieldError,
  Input,
  Label,
  Skeleton,
  Textarea,
  errorMessage,
  toast,
  useTranslation,
} from '@aict/web-kit';
import { useBrandVoice, useUpdateBrandVoice } from '../api/brand-voice';
import styles from './settings.module.css';

interface Draft {
  tone: string;
  avoidWords: string;
  useWords: string;
  example: string;
}

/** 'a, b\nc' → ['a', 'b', 'c'] (blank entries dropped). */
const wordsOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((word) => word.trim())
    .filter(Boolean);

/** The workspace's brand voice (issue 18): its admins write it; a form per workspace. */
export function BrandVoiceCard({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const stored = useBrandVoice(workspace.id);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('contentWorkflow.brandVoiceTitle')}</CardTitle>
        <CardDescription>
          {t('contentWorkflow.brandVoiceText', { name: workspace.name })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {stored.isPending ? (
          <Skeleton className={styles.skeletonLine} />
        ) : stored.error ? (
          <p role="alert">
            {t('contentWorkflow.loadFailed', { message: errorMessage(stored.error) })}
          </p>
        ) : (
          <BrandVoiceForm
            workspaceId={workspace.id}
            initial={{
              tone: stored.data.tone,
              avoidWords: stored.data.avoidWords.join('\n'),
              useWords: stored.data.useWords.join('\n'),
              example: stored.data.example,
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}

function BrandVoiceForm({ workspaceId, initial }: { workspaceId: number; initial: Draft }) {
  const { t } = useTranslation();
  const update = useUpdateBrandVoice(workspaceId);
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { tone: useId(), avoid: useId(), use: useId(), example: useId(), hint: useId() };
  const set = (key: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = BrandVoiceBody.safeParse({
      tone: draft.tone,
      avoidWords: wordsOf(draft.avoidWords),
      useWords: wordsOf(draft.useWords),
      example: draft.example,
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setProblem(null);
    update.mutate(parsed.data, {
      onSuccess: () => toast({ title: t('contentWorkflow.saved'), variant: 'success' }),
      onError: (error) =>
        toast({
          title: t('contentWorkflow.saveFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  };

  return (
    <form
      className={styles.form}
      onSubmit={onSubmit}
      aria-label={t('contentWorkflow.brandVoiceTitle')}
    >
      <div className={styles.field}>
        <Label htmlFor={ids.tone}>{t('contentWorkflow.tone')}</Label>
        <Input
          id={ids.tone}
          value={draft.tone}
          maxLength={BRAND_VOICE_LIMITS.tone}
          placeholder={t('contentWorkflow.tonePlaceholder')}
          onChange={set('tone')}
        />
      </div>
      <div className={styles.field}>
        <Label htmlFor={ids.avoid}>{t('contentWorkflow.avoidWords')}</Label>
        <Textarea
          id={ids.avoid}
          rows={3}
          value={draft.avoidWords}
          aria-describedby={ids.hint}
          onChange={set('avoidWords')}
        />
      </div>
      <div className={styles.field}>
        <Label htmlFor={ids.use}>{t('contentWorkflow.useWords')}</Label>
        <Textarea
          id={ids.use}
          rows={3}
          value={draft.useWords}
          aria-describedby={ids.hint}
          onChange={set('useWords')}
        />
        <p id={ids.hint} className={styles.hint}>
          {t('contentWorkflow.wordsHint')}
        </p>
      </div>
      <div className={styles.field}>
        <Label htmlFor={ids.example}>{t('contentWorkflow.example')}</Label>
        <Textarea
          id={ids.example}
          rows={4}
          value={draft.example}
          maxLength={BRAND_VOICE_LIMITS.example}
          placeholder={t('contentWorkflow.examplePlaceholder')}
          onChange={set('example')}
        />
      </div>
      {problem && <FieldError role="alert">{problem}</FieldError>}
      <div className={styles.buttons}>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('admin.saving') : t('contentWorkflow.save')}
        </Button>
      </div>
    </form>
  );
}
