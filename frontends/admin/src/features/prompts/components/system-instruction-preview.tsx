import { brandVoiceInstruction } from '@aict/contracts';
import { Skeleton, errorMessage, useTranslation, useWorkspace } from '@aict/web-kit';
import { useBrandVoice } from '../api/get-brand-voice';
import styles from './prompts.module.css';

/**
 * The prompt preview (issue 18): the system instruction a text generation or chat of the
 * current workspace sends before this prompt: the brand voice, as the generation service
 * writes it (brandVoiceInstruction, one definition).
 */
export function SystemInstructionPreview() {
  const { t } = useTranslation();
  const { currentWorkspace } = useWorkspace();
  const voice = useBrandVoice(currentWorkspace?.id ?? null);
  if (!currentWorkspace) return null;
  const instruction = voice.data ? brandVoiceInstruction(voice.data) : null;
  return (
    <section aria-labelledby="prompt-system-instruction">
      <h2 id="prompt-system-instruction" className={styles.sectionTitle}>
        {t('contentWorkflow.previewTitle')}
      </h2>
      <p className={styles.previewText}>
        {t('contentWorkflow.previewText', { name: currentWorkspace.name })}
      </p>
      {voice.isPending ? (
        <Skeleton className={styles.previewSkeleton} />
      ) : voice.error ? (
        <p role="alert">
          {t('contentWorkflow.loadFailed', { message: errorMessage(voice.error) })}
        </p>
      ) : instruction ? (
        <pre className={styles.templateText} data-testid="system-instruction">
          {instruction}
        </pre>
      ) : (
        <p className={styles.previewText}>{t('contentWorkflow.previewNone')}</p>
      )}
      <p className={styles.previewText}>{t('contentWorkflow.previewTemplate')}</p>
    </section>
  );
}
