// @aict/web-kit: front-end code shared by the shell and the remotes (a federation singleton,
// so everything here, including context and the toast store, exists once per page).

// api
export {
  ApiError,
  apiJson,
  apiRequest,
  errorMessage,
  getQueryFn,
  isApiError,
  readJson,
  throwIfNotOk,
  workspaceHeaders,
  type On401,
  type RequestOptions,
} from './api/http';
export { createQueryClient } from './api/query-client';
export { queryKeys, queryTimings, urlFilter, withParams } from './api/queries';
export {
  apiCall,
  fillPath,
  routeQueryKey,
  routeRef,
  routeUrl,
  type RouteBody,
  type RouteInput,
  type RouteParams,
  type RouteQuery,
  type RouteRef,
  type RouteResponse,
} from './api/route-client';
export { getPrompts, usePrompts } from './api/prompt-queries';
export { useUserNames } from './api/user-names';
export {
  workspaceCalls,
  type MemberInput,
  type MemberRoleInput,
  type WorkspaceInput,
} from './api/workspace-calls';

// session
export { SessionProvider, useSession, type SessionValue } from './session/session-provider';
export { WorkspaceProvider, useWorkspace, type WorkspaceValue } from './session/workspace-provider';
export type { Notify, WorkspaceMutations } from './session/workspace-mutations';
export { ThemeProvider, useTheme, type Theme, type ThemeValue } from './session/theme-provider';
export { AppProviders } from './app-providers';

// languages (English, Dutch): i18next + react-i18next, one instance per page
export * from './i18n';

// product, page and layout helpers
export { PRODUCT_NAME, brandTitle, gptTitle } from './product';
export { pageTitle, usePageTitle } from './lib/page-title';
export { useIsMobile, useMediaQuery } from './lib/use-media-query';
export { readStorage, readStoredWorkspaceId, writeStorage } from './lib/storage';
export { cn } from './lib/cn';
export {
  canDeletePrompt,
  canEditPrompt,
  canPublishPrompt,
  isCreator,
  type AccessContext,
} from './lib/prompt-access';
export { initials, isAdminOf } from './lib/contracts-subset';

// ui
export {
  Button,
  buttonClass,
  type ButtonProps,
  type ButtonSize,
  type ButtonVariant,
} from './ui/button';
export { FieldError, Input, Label, Select, Textarea } from './ui/input';
export { TextField, type TextFieldProps } from './ui/field';
export { EmailField, PasswordField, UsernameField } from './ui/user-fields';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './ui/card';
export { Tabs, TabsContent, TabsList, TabsTrigger, type TabsProps } from './ui/tabs';
export {
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  type DialogProps,
} from './ui/dialog';
export { Badge, Skeleton, Spinner, VisuallyHidden, type BadgeVariant } from './ui/feedback';
export { Page } from './ui/page';
export { Icon, type IconProps } from './ui/icon';
export * from './ui/icons';
export {
  Toaster,
  dismissToast,
  toast,
  useToast,
  type ToastItem,
  type ToastOptions,
  type ToastVariant,
} from './ui/toast';

// federation
export {
  RemoteBoundary,
  type RemoteBoundaryProps,
  type RemoteModule,
} from './remote/remote-boundary';
export { RemoteRoutes } from './remote/remote-routes';
export { StandaloneRemote } from './remote/standalone';

// content: history, threads and stats hooks, their display rules, the image dialog
export * from './content';

// generation: streamed text generation, safe markdown, chat attachments
export * from './generation';
