import { useDeferredValue, useMemo } from 'react';
import { FILE_VARIABLE, LANGUAGE_VARIABLE, parseTemplate, templateError } from '@aict/contracts';
import { Badge } from '@aict/web-kit';
import styles from './prompts.module.css';

const MEANINGS: Record<string, string> = {
  [FILE_VARIABLE]: 'a reference image uploaded at generation time',
  [LANGUAGE_VARIABLE]: 'the output language chosen by the user',
};

/** The template's variables as chips (`{name}`), with the meaning of the special ones. */
export function VariableList({ variables, label }: { variables: string[]; label: string }) {
  if (variables.length === 0) return <p className={styles.muted}>No variables.</p>;
  const special = variables.filter((name) => name in MEANINGS);
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
          <code>{`{${name}}`}</code>: {MEANINGS[name]}
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
  const deferred = useDeferredValue(template);
  const parsed = useMemo(() => {
    const error = templateError(deferred);
    return error ? { error: error.message } : { variables: parseTemplate(deferred).variables };
  }, [deferred]);
  return (
    <div id={id} className={styles.variablesBox} aria-live="polite">
      {parsed.error !== undefined ? (
        <p className={styles.templateError}>{parsed.error}</p>
      ) : parsed.variables.length === 0 ? (
        <p className={styles.muted}>
          No variables yet. Write <code>{'{name}'}</code> in the template to add one.
        </p>
      ) : (
        <>
          <p className={styles.sectionTitle}>Variables</p>
          <VariableList variables={parsed.variables} label="Template variables" />
        </>
      )}
    </div>
  );
}
