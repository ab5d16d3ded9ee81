import { useDeferredValue, useMemo } from 'react';
import { FILE_VARIABLE, LANGUAGE_VARIABLE, parseTemplate, templateError } from '@aict/contracts';
import { Badge, localizeValidationMessage, useTranslation } from '@aict/web-kit';
import styles from './prompts.module.css';

const MEANINGS = {
  [FILE_VARIABLE]: 'admin.form.meaningFile',
  [LANGUAGE_VARIABLE]: 'admin.form.meaningLanguage',
} as const;
const isSpecial = (name: string): name is keyof typeof MEANINGS => name in MEANINGS;

/** The template's variables as chips (`{name}`), with the meaning of the special ones. */
export function VariableList({ variables, label }: { variables: string[]; label: string }) {
  const { t } = useTranslation();
  if (variables.length === 0) return <p className={styles.muted}>{t('admin.form.noVariables')}</p>;
  const special = variables.filter(isSpecial);
  return (
    <>
      <ul className={styles.variables} aria-label={label}>
        {variables.map((name) => (
          <li key={name}>
            <Badge variant="outline" className={styles.variable}>{`{${name}}`}</Badge>
          </li>
        ))}
      </ul>
      {special.map((name) => (
        <p key={name} className={styles.hint}>
          <code>{`{${name}}`}</code>: {t(MEANINGS[name])}
        </p>
      ))}
    </>
  );
}

/**
 * The variables of the template being typed (the shared parser of @aict/contracts), or why
 * the template cannot be read yet. Announced politely as it changes.
 */
export function TemplateVariables({ template, id }: { template: string; id?: string }) {
  const { t } = useTranslation();
  const deferred = useDeferredValue(template);
  const parsed = useMemo(() => {
    const error = templateError(deferred);
    return error ? { error: error.message } : { variables: parseTemplate(deferred).variables };
  }, [deferred]);
  return (
    <div id={id} className={styles.variablesBox} aria-live="polite">
      {parsed.error !== undefined ? (
        <p className={styles.templateError}>{localizeValidationMessage(parsed.error)}</p>
      ) : parsed.variables.length === 0 ? (
        <p className={styles.muted}>
          {t('admin.form.noVariablesYetBefore')} <code>{'{name}'}</code>{' '}
          {t('admin.form.noVariablesYetAfter')}
        </p>
      ) : (
        <>
          <p className={styles.sectionTitle}>{t('admin.form.variables')}</p>
          <VariableList variables={parsed.variables} label={t('admin.form.templateVariables')} />
        </>
      )}
    </div>
  );
}
