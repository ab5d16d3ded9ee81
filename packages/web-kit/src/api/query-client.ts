import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './http';
import { queryTimings } from './queries';

/** The app's QueryClient: the default query function of SPEC §7 and the timings of §9. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { queryFn: getQueryFn({ on401: 'throw' }), ...queryTimings.defaults },
      mutations: { retry: false },
    },
  });
}
