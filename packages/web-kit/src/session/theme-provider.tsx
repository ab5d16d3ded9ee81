import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { STORAGE_KEYS, THEMES } from '@aict/contracts/constants';
import { readStorage, writeStorage } from '../lib/storage';
import { useMediaQuery } from '../lib/use-media-query';

export type Theme = (typeof THEMES)[number];

export interface ThemeValue {
  /** The preference: light, dark or system (the default). */
  theme: Theme;
  /** What is shown: the preference, or the system's when it is 'system'. */
  resolvedTheme: 'light' | 'dark';
  /** Stores the preference under `theme`; other tabs follow through the storage event. */
  setTheme: (theme: Theme) => void;
}

const ThemeContext = createContext<ThemeValue | null>(null);

function parseTheme(value: string | null): Theme {
  return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : 'system';
}

/**
 * Puts the class `light` or `dark` on <html>. Before it runs, the stylesheet already follows
 * the system preference, so there is no flash and no inline script (CSP).
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(() => parseTheme(readStorage(STORAGE_KEYS.theme)));
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const resolvedTheme = theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;

  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('dark', resolvedTheme === 'dark');
    root.classList.toggle('light', resolvedTheme === 'light');
  }, [resolvedTheme]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.theme || event.key === null) {
        setThemeState(parseTheme(readStorage(STORAGE_KEYS.theme)));
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const setTheme = useCallback((next: Theme) => {
    setThemeState(next);
    writeStorage(STORAGE_KEYS.theme, next);
  }, []);

  const value = useMemo(
    () => ({ theme, resolvedTheme, setTheme }),
    [theme, resolvedTheme, setTheme],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside <ThemeProvider>');
  return value;
}
