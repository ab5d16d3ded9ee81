import { lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { ProtectedRoute, PublicOnlyRoute, ShellWhenSignedIn } from './route-guards';
import { AdminRemote, ChatRemote, GenerationRemote } from './remotes';

// Each is its own chunk: a signed-out visitor never downloads the layout, a signed-in one
// never the login page (and its validation schemas).
const AuthPage = lazy(() =>
  import('../features/auth/auth-page.js').then((m) => ({ default: m.AuthPage })),
);
const AppLayout = lazy(() =>
  import('../features/layout/app-layout.js').then((m) => ({ default: m.AppLayout })),
);

/**
 * The route table of SPEC §2. Every path a remote renders is listed here (so anything else is
 * the not-found screen) AND in that remote's src/app/App.tsx (which decides what it shows).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicOnlyRoute />}>
        <Route path="auth" element={<AuthPage />} />
      </Route>
      <Route element={<ProtectedRoute />}>
        <Route element={<AppLayout />}>
          <Route element={<ChatRemote />}>
            <Route index element={null} />
          </Route>
          <Route element={<GenerationRemote />}>
            <Route path="text-generation" element={null} />
            <Route path="image-generation" element={null} />
            <Route path="stats" element={null} />
            <Route path="history" element={null} />
            <Route path="gallery" element={null} />
          </Route>
          <Route element={<AdminRemote />}>
            <Route path="prompts" element={null} />
            <Route path="prompts/create" element={null} />
            <Route path="prompts/:id" element={null} />
            <Route path="settings" element={null} />
            <Route path="usage" element={null} />
            <Route path="api-tokens" element={null} />
            <Route path="audit" element={null} />
          </Route>
        </Route>
      </Route>
      {/* not found: in the shell (sidebar, header) when signed in, with a way home */}
      <Route element={<ShellWhenSignedIn layout={<AppLayout />} />}>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
