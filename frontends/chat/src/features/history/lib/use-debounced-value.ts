import { useEffect, useState } from 'react';
import { i18n } from '@aict/web-kit';

/** `value`, once it has stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** SPEC §2 footer: 'N item(s)', plus ' matching "{query}"' while a search is active. */
export function historyFooter(count: number, query: string): string {
  const q = query.trim();
  return q
    ? i18n.t('history.footerMatching', { count, query: q })
    : i18n.t('history.footer', { count });
}
