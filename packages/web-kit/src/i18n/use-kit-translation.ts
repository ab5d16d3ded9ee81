import { useTranslation } from 'react-i18next';
import { i18n } from './i18n';

/**
 * useTranslation bound to web-kit's instance: its own components translate (and follow a
 * language switch) even when rendered outside <LanguageProvider>, e.g. alone in a test.
 */
export function useKitTranslation() {
  return useTranslation(undefined, { i18n });
}
