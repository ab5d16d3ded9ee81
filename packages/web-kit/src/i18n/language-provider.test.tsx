import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { answer, buildUser, renderWithProviders, stubApi } from '../test';
import { applyLanguage, initialLanguage, LANGUAGE_STORAGE_KEY } from './i18n';
import { LanguageSelect } from './language-select';

// Each user picks English or Dutch: the first default from the browser, kept in
// localStorage at once, set on <html lang>, saved on the signed-in user and applied after
// sign-in.

function Probe() {
  const { t } = useTranslation();
  return (
    <>
      <p>{t('shell.nav.stats')}</p>
      <LanguageSelect />
    </>
  );
}

function setBrowserLanguage(tag: string) {
  Object.defineProperty(window.navigator, 'language', { value: tag, configurable: true });
}

beforeEach(() => {
  localStorage.clear();
  setBrowserLanguage('en-US');
  act(() => applyLanguage('en'));
  localStorage.clear();
});

describe('the first language', () => {
  it('when the browser prefers Dutch and nothing is stored, then the first language is Dutch', () => {
    setBrowserLanguage('nl-BE');
    expect(initialLanguage()).toBe('nl');
  });

  it('when the browser prefers another language, then the first language is English', () => {
    setBrowserLanguage('de-DE');
    expect(initialLanguage()).toBe('en');
  });

  it('when a language was chosen before, then it wins over the browser', () => {
    setBrowserLanguage('nl-NL');
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    expect(initialLanguage()).toBe('en');
  });
});

describe('switching the language', () => {
  it('when a signed-in user picks Dutch, then the text changes at once, the choice is stored and set on <html lang>, and it is saved on the user', async () => {
    const user = buildUser();
    const calls = stubApi({
      'GET /api/user': () => answer(200, user),
      'GET /api/user/workspaces': () => answer(200, []),
      'PATCH /api/user': (call) => answer(200, { ...user, ...(call.body as object) }),
    });
    renderWithProviders(<Probe />);
    expect(await screen.findByText('Stats')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/user')).toBe(true));
    await act(async () => undefined);

    fireEvent.change(screen.getByLabelText('Interface language'), { target: { value: 'nl' } });

    expect(await screen.findByText('Statistieken')).toBeTruthy();
    expect(screen.getByLabelText('Weergavetaal')).toBeTruthy();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('nl');
    expect(document.documentElement.lang).toBe('nl');
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
        expect.objectContaining({ url: '/api/user', body: { language: 'nl' } }),
      ]),
    );
  });

  it('when nobody is signed in and Dutch is picked, then it holds in this browser and nothing is sent', async () => {
    const calls = stubApi({ 'GET /api/user': () => answer(401, 'Not authenticated') });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    await act(async () => undefined);
    fireEvent.change(screen.getByLabelText('Interface language'), { target: { value: 'nl' } });
    expect(await screen.findByText('Statistieken')).toBeTruthy();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('nl');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('when the signed-in user has Dutch saved, then the page switches to Dutch after sign-in', async () => {
    stubApi({
      'GET /api/user': () => answer(200, buildUser({ language: 'nl' })),
      'GET /api/user/workspaces': () => answer(200, []),
    });
    renderWithProviders(<Probe />);
    expect(await screen.findByText('Statistieken')).toBeTruthy();
    expect(document.documentElement.lang).toBe('nl');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('nl');
  });
});
