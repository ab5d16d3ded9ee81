import '../../test/setup';
import { act, screen } from '@testing-library/react';
import { applyLanguage } from '@aict/web-kit';
import { answer, renderWithProviders, stubApi } from '@aict/web-kit/testing';
import { AuthPage } from './auth-page';

// Single sign-on on the sign-in page: the provider's button when the auth service says SSO
// is on, nothing when it is off, and why a sign-in through the provider was refused.

beforeEach(() => {
  localStorage.clear();
  act(() => applyLanguage('en'));
});
afterAll(() => act(() => applyLanguage('en')));

function renderPage(sso: { enabled: boolean; label: string | null }, route = '/auth') {
  stubApi({
    'GET /api/user': () => answer(401, ''),
    'GET /api/auth/oidc': () => answer(200, sso),
  });
  return renderWithProviders(<AuthPage />, { route });
}

describe('single sign-on on the sign-in page', () => {
  it('when SSO is on, then "Sign in with <label>" links to the provider, above the password form', async () => {
    renderPage({ enabled: true, label: 'Acme ID' });

    const link = await screen.findByRole('link', { name: 'Sign in with Acme ID' });

    expect(link.getAttribute('href')).toBe('/api/auth/oidc/login');
    expect(screen.getByLabelText('Username')).toBeTruthy();
  });

  it('when SSO is off, then no such button shows and password sign-in does', async () => {
    renderPage({ enabled: false, label: null });

    expect(await screen.findByLabelText('Username')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
  });

  it('when the provider’s sign-in was refused, then the page says so', async () => {
    renderPage({ enabled: true, label: 'Acme ID' }, '/auth?sso=failed');

    const alert = await screen.findByRole('alert');

    expect(alert.textContent).toContain('Single sign-on failed');
  });

  it('when the language is Dutch, then the button and the failure read in Dutch', async () => {
    act(() => applyLanguage('nl'));
    renderPage({ enabled: true, label: 'Acme ID' }, '/auth?sso=failed');

    const link = await screen.findByRole('link', { name: 'Inloggen met Acme ID' });
    const alert = screen.getByRole('alert');

    expect(link.getAttribute('href')).toBe('/api/auth/oidc/login');
    expect(alert.textContent).toContain('Eenmalige aanmelding mislukt');
  });
});

describe('the sign-in form in Dutch', () => {
  it('when Inloggen is pressed with empty fields, then the required messages are Dutch', async () => {
    act(() => applyLanguage('nl'));
    stubApi({
      'GET /api/user': () => answer(401, ''),
      'GET /api/auth/oidc': () => answer(200, { enabled: false, label: null }),
    });
    renderWithProviders(<AuthPage />, { route: '/auth' });

    act(() => screen.getByRole('button', { name: 'Inloggen' }).click());

    expect(await screen.findByText('Gebruikersnaam is verplicht')).toBeTruthy();
    expect(screen.getByText('Wachtwoord is verplicht')).toBeTruthy();
    expect(screen.queryByText('Username is required')).toBeNull();
  });
});
