import '../../test/setup';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer, buildUser, renderWithProviders, stubApi } from '@aict/web-kit/testing';
import { AuthPage } from './auth-page';

// SPEC §2 "Login / register page", §5 Login and Register rules, §8 session texts.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

const field = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the login and register page', () => {
  it('when it opens, then Login and Register tabs show, Login selected', async () => {
    stubApi({ 'GET /api/user': () => answer(401, '') });
    renderWithProviders(<AuthPage />, { route: '/auth' });
    expect(screen.getByRole('tab', { name: 'Login' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Register' })).toBeTruthy();
    expect(screen.getByText('Text generation')).toBeTruthy();
    expect(screen.getByText('Image generation')).toBeTruthy();
    expect(screen.getByText('Reusable prompts')).toBeTruthy();
  });

  it('when it opens, then the product name and logo head the form (shown where the hero is hidden, under 1024 px)', () => {
    stubApi({ 'GET /api/user': () => answer(401, '') });
    renderWithProviders(<AuthPage />, { route: '/auth' });
    const brand = screen.getByTestId('mobile-brand');
    expect(brand.textContent).toBe('AI Content Tool');
    expect(brand.querySelector('svg')).toBeTruthy();
    // above the form, inside the main region
    const main = screen.getByRole('main');
    expect(main.firstElementChild).toBe(brand);
  });

  it('when Login is pressed with empty fields, then both required messages show and nothing is sent', async () => {
    const calls = stubApi({ 'GET /api/user': () => answer(401, '') });
    renderWithProviders(<AuthPage />, { route: '/auth' });
    act(() => screen.getByRole('button', { name: 'Login' }).click());
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('when signing in, then the button reads "Logging in..." and success says "Welcome back"', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    stubApi({
      'GET /api/user': () => answer(401, ''),
      'POST /api/login': async () => {
        await held;
        return answer(200, buildUser({ username: 'jane' }));
      },
    });
    renderWithProviders(<AuthPage />, { route: '/auth' });
    field('Username', 'jane');
    field('Password', 'secret1');
    act(() => screen.getByRole('button', { name: 'Login' }).click());
    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeTruthy();
    act(() => release());
    expect(await screen.findByText('Login successful')).toBeTruthy();
    expect(screen.getByText('Welcome back, jane!')).toBeTruthy();
  });

  it('when the credentials are refused, then "Login failed" shows with the reason', async () => {
    stubApi({
      'GET /api/user': () => answer(401, ''),
      'POST /api/login': () =>
        answer(401, { code: 'AUTH.INVALID_CREDENTIALS', message: 'Invalid username or password' }),
    });
    renderWithProviders(<AuthPage />, { route: '/auth' });
    field('Username', 'jane');
    field('Password', 'wrong');
    act(() => screen.getByRole('button', { name: 'Login' }).click());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Login failed');
    expect(alert.textContent).toContain('Invalid username or password');
  });

  it('when registering with a short password and a bad e-mail, then the SPEC messages show', async () => {
    stubApi({ 'GET /api/user': () => answer(401, '') });
    renderWithProviders(<AuthPage />, { route: '/auth' });
    act(() => screen.getByRole('tab', { name: 'Register' }).click());
    const panel = screen.getByRole('tabpanel', { name: 'Register' });
    fireEvent.change(within(panel).getByLabelText('Username'), { target: { value: 'jane' } });
    fireEvent.change(within(panel).getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.change(within(panel).getByLabelText('Password'), { target: { value: '123' } });
    act(() => within(panel).getByRole('button', { name: 'Create account' }).click());
    expect(await within(panel).findByText('Please enter a valid email')).toBeTruthy();
    expect(within(panel).getByText('Password must be at least 6 characters')).toBeTruthy();
  });
});
