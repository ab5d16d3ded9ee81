import '../../../test/setup';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { LanguageSelect, applyLanguage, dismissToast } from '@aict/web-kit';
import { renderWithProviders } from '@aict/web-kit/testing';
import App from '../../../app/App';
import { buildContent, chatServer } from '../../../test/chat-api';
import { setViewportWidth } from '../../../test/render-chat';

// The chat remote in Dutch: the shell's language switch (web-kit's LanguageSelect, one
// i18next instance for the page) changes its text at once, without a reload; SPEC's Dutch
// chat strings stay Dutch.

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setViewportWidth(1440);
  act(() => dismissToast());
  act(() => applyLanguage('en'));
  localStorage.setItem('currentWorkspaceId', '1');
});
afterEach(() => act(() => applyLanguage('en')));

function renderChatWithSwitch() {
  return renderWithProviders(
    <>
      <LanguageSelect />
      <App />
    </>,
  );
}

describe('the chat screen in Dutch', () => {
  it('when the language is switched to Dutch, then the chat and its history panel change at once', async () => {
    chatServer({ contents: [buildContent({ id: 'c1', title: 'Kerstactie' })] });
    renderChatWithSwitch();
    expect(await screen.findByText('How can I help you today?')).toBeTruthy();
    expect(screen.getByPlaceholderText('Ask me a question')).toBeTruthy();
    expect(await screen.findByText('1 item(s)')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Interface language'), { target: { value: 'nl' } });

    expect(await screen.findByText('Waarmee kan ik je helpen?')).toBeTruthy();
    expect(screen.getByPlaceholderText('Stel een vraag')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Bestanden toevoegen' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Geschiedenis' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Nieuwe chat/ })).toBeTruthy();
    expect(screen.getByPlaceholderText('Zoeken...')).toBeTruthy();
    expect(screen.queryByText('How can I help you today?')).toBeNull();

    fireEvent.change(screen.getByLabelText('Weergavetaal'), { target: { value: 'en' } });
    expect(await screen.findByText('How can I help you today?')).toBeTruthy();
  });

  it('when the history is empty in Dutch, then its empty state reads in Dutch', async () => {
    chatServer();
    act(() => applyLanguage('nl'));
    renderChatWithSwitch();
    expect(await screen.findByText('Nog niets gemaakt')).toBeTruthy();
    expect(screen.getByText('Genereer iets om het hier te zien')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('0 item(s)')).toBeTruthy());
  });

  it('when a file of a refused type is dropped in Dutch, then the warning reads in Dutch', async () => {
    chatServer();
    act(() => applyLanguage('nl'));
    renderChatWithSwitch();
    const box = await screen.findByPlaceholderText('Stel een vraag');
    await waitFor(() => expect((box as HTMLTextAreaElement).disabled).toBe(false));
    const gif = new File(['x'], 'a.gif', { type: 'image/gif' });

    fireEvent.drop(screen.getByTestId('composer'), { dataTransfer: { files: [gif] } });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Ongeldig bestandstype');
    expect(alert.textContent).not.toContain('Invalid file type');
    expect(alert.textContent).not.toContain('Only PNG');
  });
});
