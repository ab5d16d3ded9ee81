import '../../../test/setup';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { renderAdmin } from '../../../test/render-admin';
import { admin, buildPrompt, member, promptsServer, writes } from '../../../test/prompts-api';

// The admin remote's prompt screens in Dutch: every label, button, empty state and validation
// message follows the chosen language (one i18next instance for the page), and a switch
// changes the screen at once; in English the SPEC's quotes stay as quoted.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
  act(() => applyLanguage('nl'));
});
afterEach(() => act(() => applyLanguage('en')));

describe('the prompts list in Dutch', () => {
  it('when an admin opens /prompts, then the page, filters, cards and actions read in Dutch', async () => {
    promptsServer({
      me: admin,
      prompts: [buildPrompt({ name: 'Lanceringspost', category: 'Technical', isDefault: true })],
    });
    renderAdmin('/prompts');
    const card = await screen.findByRole('article', { name: 'Lanceringspost' });
    expect(screen.getByRole('heading', { level: 1, name: 'Prompts' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Prompt maken' })).toHaveLength(1);
    expect(screen.getByLabelText('Categorie')).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Alle categorieën' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Alle typen' })).toBeTruthy();
    expect(within(card).getByText('Technisch')).toBeTruthy();
    expect(within(card).getByText('Tekst')).toBeTruthy();
    expect(within(card).getByText('Standaard')).toBeTruthy();
    expect(within(card).getByText('Door jou gemaakt')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Lanceringspost bewerken' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Lanceringspost uitvoeren' })).toBeTruthy();

    act(() => within(card).getByRole('button', { name: 'Lanceringspost verwijderen' }).click());
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Prompt verwijderen?')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'Dit kan niet ongedaan worden gemaakt. De prompt wordt definitief verwijderd.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Annuleren' })).toBeTruthy();
  });

  it('when there are no prompts, then the empty state reads in Dutch', async () => {
    promptsServer({ me: admin });
    renderAdmin('/prompts');
    expect(await screen.findByText('Geen prompts gevonden')).toBeTruthy();
    expect(screen.getByText('Er zijn nog geen prompts.')).toBeTruthy();
  });

  it('when a member opens /prompts, then the access notice reads in Dutch', async () => {
    promptsServer({ me: member });
    renderAdmin('/prompts');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Beheerderstoegang vereist' + 'Je hebt beheerdersrechten nodig om deze pagina te openen.',
    );
  });

  it('when the language is switched back to English, then the SPEC texts show as quoted', async () => {
    promptsServer({ me: admin });
    renderAdmin('/prompts');
    expect(await screen.findByText('Geen prompts gevonden')).toBeTruthy();
    act(() => applyLanguage('en'));
    expect(await screen.findByText('No prompts found')).toBeTruthy();
    expect(screen.getByText('There are no prompts available yet.')).toBeTruthy();
  });
});

describe('creating a prompt in Dutch', () => {
  it('when the form is sent empty, then the contracts’ validation messages show in Dutch and nothing is sent', async () => {
    const { calls } = promptsServer({ me: admin });
    renderAdmin('/prompts/create');
    await screen.findByRole('heading', { name: 'Prompt maken' });
    expect(screen.getByLabelText('Naam')).toBeTruthy();
    expect(screen.getByLabelText('Inhoudstype')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Standaardprompt' })).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Prompt maken' }).click());
    expect(await screen.findByText('Naam is verplicht')).toBeTruthy();
    expect(screen.getByText('Template is verplicht')).toBeTruthy();
    expect(screen.queryByText('Name is required')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('when the template cannot be read, then the reason is shown in Dutch', async () => {
    promptsServer({ me: admin });
    renderAdmin('/prompts/create');
    await screen.findByRole('heading', { name: 'Prompt maken' });
    fireEvent.change(screen.getByLabelText('Template'), { target: { value: 'Hoi {naam' } });
    expect(
      await screen.findByText(
        "'{' niet gesloten bij teken 5. Schrijf '{{' voor een letterlijke accolade.",
      ),
    ).toBeTruthy();
  });
});

describe('a prompt page in Dutch', () => {
  it('when an admin opens a prompt, then its tabs, details and actions read in Dutch', async () => {
    const prompt = buildPrompt({ name: 'Nieuwsbrief' });
    promptsServer({ me: admin, prompts: [prompt] });
    renderAdmin(`/prompts/${prompt.id}`);
    await screen.findByRole('heading', { name: 'Nieuwsbrief' });
    expect(screen.getByRole('tab', { name: 'Promptdetails' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Prompt bewerken' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Tekst genereren' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Terug naar prompts' })).toBeTruthy();
    expect(screen.getByText('Zichtbaarheid')).toBeTruthy();
    expect(screen.getByText('Deze werkruimte')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Variabelen' })).toBeTruthy();
  });

  it('when the prompt does not exist, then "not found" reads in Dutch', async () => {
    promptsServer({ me: admin });
    renderAdmin('/prompts/missing');
    expect(await screen.findByText('Prompt niet gevonden')).toBeTruthy();
    expect(
      screen.getByText('De prompt die je zoekt bestaat niet of je hebt er geen toegang toe.'),
    ).toBeTruthy();
  });
});
