import '../../test/setup';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { applyLanguage } from '@aict/web-kit';
import {
  answer,
  buildUser,
  buildWorkspace,
  renderWithProviders,
  stubApi,
} from '@aict/web-kit/testing';
import { AppLayout } from './app-layout';

// The shell in Dutch: the sidebar's language control (labelled, a native select, so
// keyboard-operable) switches every text of the sidebar and header at once.

function renderLayout(user = buildUser()) {
  stubApi({
    'GET /api/user': () => answer(200, user),
    'GET /api/user/workspaces': () => answer(200, [buildWorkspace(1, 'Acme')]),
    'PATCH /api/user': () => answer(200, { ...user, language: 'nl' }),
  });
  return renderWithProviders(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="*" element={<p>screen</p>} />
      </Route>
    </Routes>,
    { route: '/stats' },
  );
}

beforeEach(() => {
  localStorage.clear();
  act(() => applyLanguage('en'));
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
});
afterEach(() => act(() => applyLanguage('en')));

describe('the sidebar in Dutch', () => {
  it('when Dutch is picked in the sidebar, then the navigation, theme and log-out texts read in Dutch', async () => {
    renderLayout();
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByText('Text Generation')).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: 'Interface language' }), {
      target: { value: 'nl' },
    });

    const dutchNav = await screen.findByRole('navigation', { name: 'Hoofdmenu' });
    expect(within(dutchNav).getByText('Tekst genereren')).toBeTruthy();
    expect(within(dutchNav).getByText('Afbeelding genereren')).toBeTruthy();
    expect(within(dutchNav).getByText('Statistieken')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Uitloggen' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Werkruimte:/ })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Weergavetaal' })).toBeTruthy();
  });
});
