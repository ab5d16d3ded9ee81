import { useCallback, useSyncExternalStore } from 'react';
import { BREAKPOINTS } from '@aict/contracts/constants';

/** Whether the CSS media query matches, kept current. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Narrower than the mobile breakpoint (768 px): the sidebar becomes a drawer. */
export function useIsMobile(): boolean {
  return useMediaQuery(`(max-width: ${BREAKPOINTS.mobile - 0.02}px)`);
}
