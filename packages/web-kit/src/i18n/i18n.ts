import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, writeStorage } from '../lib/storage';
import { en, type Resources } from './en';

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
 * The one i18next instance of the page. web-kit is a federation singleton that carries i18next
 * and react-i18next (front-ends import them only through web-kit), so the shell and every
 * remote translate with it and a language switch reaches them all at once. English is bundled (init is synchronous);
 * the other languages load when first shown (`loadLanguage`, before the shell's first render).
 */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: typeof window === 'undefined' ? 'en' : initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false,
  returnNull: false,
});

/** The texts of the languages not bundled: a chunk each, fetched when first shown. */
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Resources>> = {
  nl: () => import('./nl.js').then((module) => module.nl),
};

export const languageLoaded = (language: Language) =>
  i18n.hasResourceBundle(language, 'translation');

/** Adds a language's texts (the loaders below; the component tests add Dutch up front). */
export function registerLanguage(language: Language, texts: Resources): void {
  if (!languageLoaded(language)) i18n.addResourceBundle(language, 'translation', texts);
}

/** Fetches a language's texts unless they are here (the page shows it only then). */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || languageLoaded(language)) return;
  registerLanguage(language, await LOADERS[language]());
}

/**
 * Resolves once the page's language can be shown (its texts loaded, or English after a failed
 * load): a page's entry renders after it, so that it never shows English first.
 */
export const languageReady = (): Promise<void> =>
  loadLanguage(currentLanguage()).catch(() => undefined);

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

/** The language asked for last: a switch that loads its texts yields to a later one. */
let wanted: Language | null = null;

/**
 * Switches every screen to `language`, stores it and sets <html lang>. A language whose texts
 * are not here yet switches once they have loaded; it stays as it was if they cannot load.
 */
export function applyLanguage(language: Language): void {
  wanted = language;
  writeStorage(LANGUAGE_STORAGE_KEY, language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  if (languageLoaded(language)) {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    return;
  }
  // Switched even when it is the language already set: the screens showed the fallback.
  loadLanguage(language).then(
    () => wanted === language && void i18n.changeLanguage(language),
    () => undefined,
  );
}
