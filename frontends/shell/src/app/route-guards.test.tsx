import '../test/setup';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import {
  answer,
  buildUser,
  buildWorkspace,
  renderWithProviders,
  stubApi,
} from '@aict/web-kit/testing';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { AppLayout } from '../features/layout/app-layout';
import { ProtectedRoute, PublicOnlyRoute, ShellWhenSignedIn } from './route-guards';

// SPEC §2: protected routes go to /auth when signed out (a spinner while the session loads),
// the login page sends a signed-in user to /, and any other path is the not-found screen.

function renderRoutes(route: string) {
  return renderWithProviders(
    <Routes>
      <Route element={<PublicOnlyRoute />}>
        <Route path="auth" element={<h1>Login page</h1>} />
      </Route>
      <Route element={<ProtectedRoute />}>
        <Route index element={<h1>Home</h1>} />
        <Route path="stats" element={<h1>Stats</h1>} />
      </Route>
      <Route element={<ShellWhenSignedIn layout={<AppLayout />} />}>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>,
    { route },
  );
}

const signedIn = () =>
  stubApi({
    'GET /api/user': () => answer(200, buildUser()),
    'GET /api/user/workspaces': () => answer(200, [buildWorkspace(1, 'Acme')]),
  });

beforeEach(() => localStorage.clear());

describe('route guards', () => {
  it('when the session is still loading, then a spinner shows', () => {
    stubApi({ 'GET /api/user': () => new Promise(() => undefined) as never });
    renderRoutes('/stats');
    expect(screen.getByRole('status').textContent).toBe('Loading session');
  });

  it('when a signed-out visitor opens a protected page, then the login page shows', async () => {
    stubApi({ 'GET /api/user': () => answer(401, '', 'Unauthorized') });
    renderRoutes('/stats');
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeTruthy();
  });

  it('when a signed-in user opens the login page, then they go to /', async () => {
    signedIn();
    renderRoutes('/auth');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('when a signed-in user opens a protected page, then it shows', async () => {
    signedIn();
    renderRoutes('/stats');
    expect(await screen.findByRole('heading', { name: 'Stats' })).toBeTruthy();
  });

  it('when a path is not in the route table, then the not-found screen shows', async () => {
    stubApi({ 'GET /api/user': () => answer(401, '') });
    renderRoutes('/no/such/page');
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
  });

  it('when a signed-in user opens an unknown path, then the not-found screen keeps the sidebar and links home', async () => {
    signedIn();
    renderRoutes('/no/such/page');
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });

  it('when a signed-out visitor opens an unknown path, then the not-found screen links home', async () => {
    stubApi({ 'GET /api/user': () => answer(401, '') });
    renderRoutes('/no/such/page');
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });
});
