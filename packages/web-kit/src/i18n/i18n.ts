import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, writeStorage } from '../lib/storage';
import { en } from './en';
import { nl } from './nl';

export const LANGUAGES = ['en', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** localStorage key of the chosen language (beside SPEC §3's `theme` and `currentWorkspaceId`). */
export const LANGUAGE_STORAGE_KEY = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The browser's language: Dutch for any 'nl*' tag, English otherwise. */
export function browserLanguage(): Language {
  const tag = typeof navigator === 'undefined' ? '' : (navigator.language ?? '');
  return tag.toLowerCase().startsWith('nl') ? 'nl' : 'en';
}

/** The stored choice, else the browser's language. */
export function initialLanguage(): Language {
  const stored = readStorage(LANGUAGE_STORAGE_KEY);
  return isLanguage(stored) ? stored : browserLanguage();
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

/**
 * The one i18next instance of the page. web-kit is a federation singleton (and i18next and
 * react-i18next are shared singletons too), so the shell and every remote translate with it
 * and a language switch reaches them all at once. Resources are bundled: init is synchronous.
 */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, nl: { translation: nl } },
  lng: typeof window === 'undefined' ? 'en' : initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false,
  returnNull: false,
});

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

/** Switches every screen to `language`, stores it and sets <html lang>. */
export function applyLanguage(language: Language): void {
  writeStorage(LANGUAGE_STORAGE_KEY, language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  if (i18n.language !== language) void i18n.changeLanguage(language);
}
