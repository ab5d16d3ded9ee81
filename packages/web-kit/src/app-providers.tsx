import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createQueryClient } from './api/query-client';
import { LanguageProvider } from './i18n/language-provider';
import { SessionProvider } from './session/session-provider';
import { ThemeProvider } from './session/theme-provider';
import { WorkspaceProvider } from './session/workspace-provider';
import { Toaster } from './ui/toast';

/**
 * Everything an app's root needs except the router: query client, theme, session, language,
 * workspace and the toaster. The shell mounts it once; a remote mounts it only when it runs alone.
 */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <SessionProvider>
          <LanguageProvider>
            <WorkspaceProvider>
              {children}
              <Toaster />
            </WorkspaceProvider>
          </LanguageProvider>
        </SessionProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
