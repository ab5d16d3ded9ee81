import { useId } from 'react';
import { Label, Select, useTranslation } from '@aict/web-kit';
import styles from './generation.module.css';

/** The model choice, shown to admins only (SPEC §6); the caller decides who sees it. */
export function ModelPicker({
  models,
  value,
  onChange,
}: {
  models: readonly string[];
  value: string;
  onChange: (model: string) => void;
}) {
  const id = useId();
  const { t } = useTranslation();
  return (
    <div className={styles.field}>
      <Label htmlFor={id}>{t('generation.model')}</Label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {!models.includes(value) && value && <option value={value}>{value}</option>}
        {models.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </Select>
    </div>
  );
}
