import { isFullPrompt, type PromptView } from '@aict/contracts';
import { Badge, Card, CardContent } from '@aict/web-kit';
import { CategoryBadge, ContentTypeBadge } from './category-badge';
import { referenceImages } from './reference-images-card';
import { VariableList } from './template-variables';
import styles from './prompts.module.css';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
};

/**
 * The 'Prompt Details' tab (SPEC §2, §6): admins see every field and the template; anyone
 * else only the name (the page heading) and the variables, which is all the server sends them.
 */
export function PromptDetails({ prompt, isAdmin }: { prompt: PromptView; isAdmin: boolean }) {
  const full = isAdmin && isFullPrompt(prompt) ? prompt : null;
  const variables = (
    <section aria-labelledby="prompt-variables">
      <h2 id="prompt-variables" className={styles.sectionTitle}>
        Variables
      </h2>
      <VariableList variables={prompt.variables} label="Prompt variables" />
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
            <dt>Category</dt>
            <dd>
              <CategoryBadge category={full.category} />
            </dd>
          </div>
          <div>
            <dt>Content type</dt>
            <dd>
              <ContentTypeBadge contentType={full.contentType} />
            </dd>
          </div>
          <div>
            <dt>Model</dt>
            <dd>{full.model}</dd>
          </div>
          <div>
            <dt>Visibility</dt>
            <dd>
              {full.isPublic ? 'Public' : 'This workspace'}
              {full.isDefault && (
                <>
                  {' '}
                  <Badge variant="success">Default</Badge>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatDate(full.createdAt)}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>{formatDate(full.updatedAt)}</dd>
          </div>
        </dl>
        <section aria-labelledby="prompt-template">
          <h2 id="prompt-template" className={styles.sectionTitle}>
            Template
          </h2>
          <pre className={styles.templateText}>{full.template}</pre>
        </section>
        {variables}
        {images.length > 0 && (
          <section aria-labelledby="prompt-references">
            <h2 id="prompt-references" className={styles.sectionTitle}>
              Reference images
            </h2>
            <ul className={styles.references}>
              {images.map((url, index) => (
                <li key={`${index}-${url}`} className={styles.reference}>
                  <img src={url} alt={`Reference image ${index + 1}`} loading="lazy" />
                </li>
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
