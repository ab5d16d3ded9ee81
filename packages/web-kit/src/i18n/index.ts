export {
  LANGUAGES,
  LANGUAGE_STORAGE_KEY,
  applyLanguage,
  browserLanguage,
  currentLanguage,
  i18n,
  initialLanguage,
  isLanguage,
  languageLoaded,
  languageReady,
  loadLanguage,
  registerLanguage,
  type Language,
} from './i18n';
export { LanguageProvider, useLanguage, type LanguageValue } from './language-provider';
export { LanguageSelect } from './language-select';
export { localizeAttachmentProblem, localizeServerMessage } from './localize-error';
export { en, type Resources } from './en';
export { useTranslation, Trans } from 'react-i18next';
export { fieldErrors, localizeValidationMessage } from './localize-validation';
