import { isFullPrompt, type PromptView } from '@aict/contracts';
import { Badge, Card, CardContent, useTranslation } from '@aict/web-kit';
import { CategoryBadge, ContentTypeBadge } from './category-badge';
import { referenceImages } from './reference-images-card';
import { SystemInstructionPreview } from './system-instruction-preview';
import { VariableList } from './template-variables';
import styles from './prompts.module.css';

const formatDate = (iso: string, language: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
};

/**
 * The 'Prompt Details' tab (SPEC §2, §6): admins see every field and the template; anyone
 * else only the name (the page heading) and the variables, which is all the server sends them.
 */
export function PromptDetails({ prompt, isAdmin }: { prompt: PromptView; isAdmin: boolean }) {
  const { t, i18n } = useTranslation();
  const full = isAdmin && isFullPrompt(prompt) ? prompt : null;
  const variables = (
    <section aria-labelledby="prompt-variables">
      <h2 id="prompt-variables" className={styles.sectionTitle}>
        {t('admin.detail.variables')}
      </h2>
      <VariableList variables={prompt.variables} label={t('admin.detail.promptVariables')} />
    </section>
  );
  if (!full) {
    return (
      <Card>
        <CardContent>{variables}</CardContent>
      </Card>
    );
  }
  const images = referenceImages(full);
  return (
    <Card>
      <CardContent className={styles.stack}>
        <dl className={styles.details}>
          <div>
            <dt>{t('admin.detail.category')}</dt>
            <dd>
              <CategoryBadge category={full.category} />
            </dd>
          </div>
          <div>
            <dt>{t('admin.detail.contentType')}</dt>
            <dd>
              <ContentTypeBadge contentType={full.contentType} />
            </dd>
          </div>
          <div>
            <dt>{t('admin.detail.model')}</dt>
            <dd>{full.model}</dd>
          </div>
          <div>
            <dt>{t('admin.detail.visibility')}</dt>
            <dd>
              {full.isPublic ? t('admin.detail.public') : t('admin.detail.thisWorkspace')}
              {full.isDefault && (
                <>
                  {' '}
                  <Badge variant="success">{t('admin.prompts.default')}</Badge>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>{t('admin.detail.created')}</dt>
            <dd>{formatDate(full.createdAt, i18n.language)}</dd>
          </div>
          <div>
            <dt>{t('admin.detail.updatedAt')}</dt>
            <dd>{formatDate(full.updatedAt, i18n.language)}</dd>
          </div>
        </dl>
        <section aria-labelledby="prompt-template">
          <h2 id="prompt-template" className={styles.sectionTitle}>
            {t('admin.detail.template')}
          </h2>
          <pre className={styles.templateText}>{full.template}</pre>
        </section>
        {full.contentType === 'text' && <SystemInstructionPreview />}
        {variables}
        {images.length > 0 && (
          <section aria-labelledby="prompt-references">
            <h2 id="prompt-references" className={styles.sectionTitle}>
              {t('admin.detail.referenceImages')}
            </h2>
            <ul className={styles.references}>
              {images.map((url, index) => (
                <li key={`${index}-${url}`} className={styles.reference}>
                  <img
                    src={url}
                    alt={t('admin.detail.referenceImage', { index: index + 1 })}
                    loading="lazy"
                  />
                </li>
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
