import { createContext, useContext, useMemo, type ReactNode } from 'react';
import {
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
} from '@tanstack/react-query';
import type { LoginBody, RegisterBody, User } from '@aict/contracts';
import { apiJson, apiRequest, getQueryFn } from '../api/http';
import { queryKeys } from '../api/queries';

export interface SessionValue {
  /** The signed-in user; null when signed out (GET /api/user answered 401) or not loaded. */
  user: User | null;
  /** True until the first answer of GET /api/user. */
  isLoading: boolean;
  /** A failure other than 401 while loading the user. */
  error: Error | null;
  /** POST /api/login; on success the user is the current user. */
  login: UseMutationResult<User, Error, LoginBody>;
  /** POST /api/register; on success the user is the current user. */
  register: UseMutationResult<User, Error, RegisterBody>;
  /** POST /api/logout; on success the user and every other cached answer are dropped. */
  logout: UseMutationResult<void, Error, void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const userKey = queryKeys.user();
  const userQuery = useQuery<User | null>({
    queryKey: userKey,
    queryFn: getQueryFn<User | null>({ on401: 'returnNull' }),
  });

  const login = useMutation<User, Error, LoginBody>({
    mutationFn: (body) => apiJson<User>('POST', '/api/login', body),
    onSuccess: (user) => queryClient.setQueryData(userKey, user),
  });
  const register = useMutation<User, Error, RegisterBody>({
    mutationFn: (body) => apiJson<User>('POST', '/api/register', body),
    onSuccess: (user) => queryClient.setQueryData(userKey, user),
  });
  const logout = useMutation<void, Error, void>({
    mutationFn: async () => {
      await apiRequest('POST', '/api/logout');
    },
    onSuccess: () => {
      queryClient.setQueryData(userKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userKey[0] });
    },
  });

  const value = useMemo<SessionValue>(
    () => ({
      user: userQuery.data ?? null,
      isLoading: userQuery.isPending,
      error: userQuery.error,
      login,
      register,
      logout,
    }),
    [userQuery.data, userQuery.isPending, userQuery.error, login, register, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
