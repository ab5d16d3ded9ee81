import { useId } from 'react';
import { FILE_VARIABLE, LANGUAGE_VARIABLE } from '@aict/contracts';
import { Input, Label, Select, useTranslation } from '@aict/web-kit';
import { LANGUAGES } from './languages';
import styles from './generation.module.css';

export interface VariableInputsProps {
  /** The prompt's variables (parseTemplate order); {file} is handled by the caller. */
  variables: readonly string[];
  inputs: Readonly<Record<string, string>>;
  onInputChange: (name: string, value: string) => void;
  language: string;
  onLanguageChange: (code: string) => void;
  /** Called on Enter in the last field (it generates, as the page's button does). */
  onSubmit?: () => void;
}

/** One field per template variable; {language} is a choice of language (SPEC §3). */
export function VariableInputs({
  variables,
  inputs,
  onInputChange,
  language,
  onLanguageChange,
  onSubmit,
}: VariableInputsProps) {
  const baseId = useId();
  const { t } = useTranslation();
  const fields = variables.filter((name) => name !== FILE_VARIABLE);
  if (fields.length === 0) {
    return <p className={styles.muted}>{t('generation.noVariables')}</p>;
  }
  return (
    <div className={styles.fields}>
      {fields.map((name, index) => {
        const id = `${baseId}-${index}`;
        if (name === LANGUAGE_VARIABLE) {
          return (
            <div key={name} className={styles.field}>
              <Label htmlFor={id}>{t('generation.outputLanguage')}</Label>
              <Select
                id={id}
                value={language}
                onChange={(event) => onLanguageChange(event.target.value)}
              >
                {LANGUAGES.map((option) => (
                  <option key={option.code} value={option.code}>
                    {option.name}
                  </option>
                ))}
              </Select>
            </div>
          );
        }
        return (
          <div key={name} className={styles.field}>
            <Label htmlFor={id}>{name}</Label>
            <Input
              id={id}
              value={inputs[name] ?? ''}
              placeholder={t('generation.enterVariable', { name })}
              onChange={(event) => onInputChange(name, event.target.value)}
              onKeyDown={(event) => {
                const last = index === fields.length - 1;
                if (last && event.key === 'Enter' && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  onSubmit?.();
                }
              }}
            />
          </div>
        );
      })}
    </div>
  );
}
