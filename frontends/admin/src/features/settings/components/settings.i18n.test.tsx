import '../../../test/setup';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { applyLanguage, dismissToast } from '@aict/web-kit';
import { renderAdmin } from '../../../test/render-admin';
import { bob, settingsServer, superAdmin, writes } from '../../../test/settings-api';

// The settings screen in Dutch: tabs, cards, tables, dialogs, toasts and validation messages
// follow the chosen language; a switch changes the screen at once.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
  act(() => applyLanguage('nl'));
});
afterEach(() => act(() => applyLanguage('en')));

const tabNames = async () => {
  const list = await screen.findByRole('tablist', { name: 'Onderdelen van de instellingen' });
  return within(list)
    .getAllByRole('tab')
    .map((tab) => tab.textContent);
};

describe('the settings screen in Dutch', () => {
  it('when a super admin opens it, then the title, tabs and the API key card read in Dutch', async () => {
    settingsServer({ me: superAdmin });
    renderAdmin('/settings');
    expect(await tabNames()).toEqual(['API-sleutels', 'Gebruikers', 'Werkruimtes']);
    expect(screen.getByRole('heading', { level: 1, name: 'Beheerinstellingen' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'API-sleutel van Acme' })).toBeTruthy();
    expect(screen.getByLabelText('API-sleutel van de werkruimte')).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'API-sleutel van de werkruimte opslaan' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Verbinding testen' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Standaardmodellen' })).toBeTruthy();
    expect(screen.getByLabelText('Standaard tekstmodel')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Globale API-sleutel beheren' })).toBeTruthy();
  });

  it('when the users tab opens, then the admins, the form and the table read in Dutch', async () => {
    settingsServer({ me: superAdmin, users: [superAdmin, bob] });
    renderAdmin('/settings?tab=users');
    const admins = await screen.findByRole('list', { name: 'Huidige beheerders' });
    expect(within(admins).getByText('Superbeheerder')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Nieuwe gebruiker toevoegen' })).toBeTruthy();
    expect(screen.getByLabelText('Gebruikersnaam')).toBeTruthy();
    expect(screen.getByLabelText('Wachtwoord')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Gebruiker toevoegen' })).toBeTruthy();

    const table = await screen.findByRole('table', { name: 'Gebruikers' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Gebruikersnaam', 'E-mail', 'Rol', 'Werkruimtes', 'Acties']);
    expect(within(table).getByText('Acme · gebruiker')).toBeTruthy();
    expect(within(table).getByText('Beta · beheerder')).toBeTruthy();
    expect(within(table).getByText('(jij)')).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'bob verwijderen' }).click());
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Gebruiker verwijderen?')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Verwijderen' })).toBeTruthy();
  });

  it('when a new password is refused by the contracts, then the reason shows in Dutch and nothing is sent', async () => {
    const { calls } = settingsServer({ me: superAdmin, users: [superAdmin, bob] });
    renderAdmin('/settings?tab=users');
    const reset = await screen.findByRole('button', { name: 'Wachtwoord van bob resetten' });
    act(() => reset.click());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Wachtwoord resetten', { selector: 'h2' })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nieuw wachtwoord'), {
      target: { value: '123' },
    });
    act(() => within(dialog).getByRole('button', { name: 'Wachtwoord resetten' }).click());
    expect(
      await within(dialog).findByText('Het wachtwoord moet minstens 6 tekens hebben'),
    ).toBeTruthy();
    expect(writes(calls)).toEqual([]);
  });

  it('when the workspaces tab opens, then the table, counts and the default-workspace toast read in Dutch', async () => {
    settingsServer({ me: superAdmin, users: [superAdmin, bob] });
    renderAdmin('/settings?tab=workspaces');
    const table = await screen.findByRole('table', { name: 'Werkruimtes' });
    const acmeRow = within(table).getByText('Acme').closest('tr') as HTMLElement;
    expect(within(acmeRow).getByText('2 gebruikers')).toBeTruthy();
    expect(within(acmeRow).getByRole('button', { name: 'Logo uploaden voor Acme' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Werkruimte maken' })).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Acme verwijderen' }).click());
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Standaardwerkruimte kan niet worden verwijderd',
    );
  });

  it('when a workspace is created without a name, then "Naam is verplicht" shows and nothing is sent', async () => {
    const { calls } = settingsServer({ me: superAdmin });
    renderAdmin('/settings?tab=workspaces');
    const create = await screen.findByRole('button', { name: 'Werkruimte maken' });
    act(() => create.click());
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        'Een werkruimte heeft eigen prompts, inhoud, instellingen en leden.',
      ),
    ).toBeTruthy();
    act(() => within(dialog).getByRole('button', { name: 'Werkruimte maken' }).click());
    expect(await within(dialog).findByText('Naam is verplicht')).toBeTruthy();
    expect(writes(calls)).toEqual([]);
  });

  it('when the language is switched to English, then the SPEC texts show as quoted', async () => {
    settingsServer({ me: superAdmin });
    renderAdmin('/settings?tab=users');
    await screen.findByRole('heading', { name: 'Nieuwe gebruiker toevoegen' });
    act(() => applyLanguage('en'));
    expect(await screen.findByRole('heading', { name: 'Add New User' })).toBeTruthy();
    expect(await tabNamesEnglish()).toEqual(['API Keys', 'Users', 'Workspaces']);
  });
});

async function tabNamesEnglish() {
  const list = await screen.findByRole('tablist', { name: 'Settings sections' });
  return within(list)
    .getAllByRole('tab')
    .map((tab) => tab.textContent);
}
