import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../lib/cn';
import { Select } from '../ui/input';
import { LANGUAGES, isLanguage } from './i18n';
import { useLanguage } from './language-provider';

/** A labelled, keyboard-operable language picker (a native select). */
export function LanguageSelect({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  const id = useId();
  return (
    <div className={cn('wk-language', className)}>
      <label htmlFor={id} className="wk-language__label">
        {t('language.label')}
      </label>
      <Select
        id={id}
        value={language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) setLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((code) => (
          // each name in its own language, so anyone can find theirs
          <option key={code} value={code} lang={code}>
            {t(`language.${code}`)}
          </option>
        ))}
      </Select>
    </div>
  );
}
