import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { User } from '@aict/contracts';
import { apiJson } from '../api/http';
import { queryKeys } from '../api/queries';
import { useSession } from '../session/session-provider';
import { applyLanguage, currentLanguage, i18n, isLanguage, type Language } from './i18n';

export interface LanguageValue {
  /** The language shown: 'en' or 'nl'. */
  language: Language;
  /**
   * Switches the whole page (shell and remotes) at once, stores the choice in localStorage
   * and <html lang>, and saves it on the signed-in user (PATCH /api/user).
   */
  setLanguage: (language: Language) => void;
}

const LanguageContext = createContext<LanguageValue | null>(null);

/** The language saved on a user, if any (absent until the user picks one). */
function savedLanguage(user: User | null): Language | null {
  return isLanguage(user?.language) ? user.language : null;
}

/**
 * Holds the page's language. The first default comes from the browser ('nl*' gives Dutch);
 * a stored choice wins over it; after sign-in the language saved on the user wins.
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(currentLanguage);
  const { user } = useSession();
  const queryClient = useQueryClient();
  const userLanguage = savedLanguage(user);

  useEffect(() => {
    const onChange = () => setLanguageState(currentLanguage());
    i18n.on('languageChanged', onChange);
    document.documentElement.lang = currentLanguage();
    return () => i18n.off('languageChanged', onChange);
  }, []);

  // the language saved on the user applies after sign-in (and when another tab changed it)
  useEffect(() => {
    if (userLanguage) applyLanguage(userLanguage);
  }, [userLanguage]);

  const setLanguage = useCallback(
    (next: Language) => {
      applyLanguage(next);
      const userKey = queryKeys.user();
      const signedIn = queryClient.getQueryData<User | null>(userKey);
      if (!signedIn) return;
      // keep the cached user in step, so the effect above does not switch back
      queryClient.setQueryData<User | null>(userKey, (old) =>
        old ? { ...old, language: next } : old,
      );
      apiJson<User>('PATCH', '/api/user', { language: next }).then(
        (saved) => queryClient.setQueryData(userKey, saved),
        () => undefined, // not saved on the server: the choice still holds in this browser
      );
    },
    [queryClient],
  );

  const value = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  return (
    <I18nextProvider i18n={i18n}>
      <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>
    </I18nextProvider>
  );
}

export function useLanguage(): LanguageValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error('useLanguage must be used inside <LanguageProvider>');
  return value;
}
