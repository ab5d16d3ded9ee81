import '../../../test/setup';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { settingsServer, superAdmin, workspaceAdmin, writes } from '../../../test/settings-api';

// SPEC §2 "API keys tab", §7 Settings calls and the §8 settings texts.

const FULL_KEY = 'sk-proj-abcdefghijklmnopqrstuvwx1234';

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

describe('the API keys tab', () => {
  it('when a workspace is selected, then the heading names its key and the button saves a workspace key', async () => {
    settingsServer({ me: workspaceAdmin, apiKey: 'sk-…wxyz' });
    renderAdmin('/settings');
    expect(await screen.findByRole('heading', { name: 'Acme API Key' })).toBeTruthy();
    const field = screen.getByLabelText('Workspace API Key') as HTMLInputElement;
    expect(field.type).toBe('password');
    expect(field.placeholder.startsWith('sk-')).toBe(true);
    expect(screen.getByRole('button', { name: 'Save Workspace API Key' })).toBeTruthy();
  });

  it('when no workspace is selected, then the global key is named and saved', async () => {
    settingsServer({ me: superAdmin, workspaces: [], apiKey: null });
    renderAdmin('/settings');
    expect(await screen.findByRole('heading', { name: 'Global API Key' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save Global API Key' })).toBeTruthy();
    expect(await screen.findByText('No global API key is set.')).toBeTruthy();
  });

  it('when a super admin opens the global key below the workspace key, then it saves the global key', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      routes: {
        'PUT /api/settings/openai_api_key': () =>
          answer(200, { key: 'openai_api_key', value: 'sk-…0001', scope: 'global' }),
      },
    });
    renderAdmin('/settings');
    await screen.findByRole('heading', { name: 'Acme API Key' });
    expect(screen.queryByRole('heading', { name: 'Global API Key' })).toBeNull();
    act(() => screen.getByRole('button', { name: 'Manage the global API key' }).click());
    expect(await screen.findByRole('heading', { name: 'Global API Key' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Global API Key'), {
      target: { value: 'sk-global-000000000001' },
    });
    act(() => screen.getByRole('button', { name: 'Save Global API Key' }).click());
    expect(await screen.findByText('API Key Updated')).toBeTruthy();
    expect(writes(calls)).toEqual(['PUT /api/settings/openai_api_key']);
  });

  it('when a workspace admin views the keys, then the global key is not offered', async () => {
    settingsServer({ me: workspaceAdmin });
    renderAdmin('/settings');
    await screen.findByRole('heading', { name: 'Acme API Key' });
    expect(screen.queryByRole('button', { name: 'Manage the global API key' })).toBeNull();
  });

  it('when a key is stored, then only its masked form is shown and the field stays empty', async () => {
    settingsServer({ me: workspaceAdmin, apiKey: 'sk-…1234' });
    renderAdmin('/settings');
    expect(await screen.findByText('sk-…1234')).toBeTruthy();
    expect((screen.getByLabelText('Workspace API Key') as HTMLInputElement).value).toBe('');
  });

  it('when a server answers with a key in full, then the screen still never shows it in full', async () => {
    settingsServer({ me: workspaceAdmin, apiKey: FULL_KEY });
    const { container } = renderAdmin('/settings');
    expect(await screen.findByText('sk-…1234')).toBeTruthy();
    expect(container.innerHTML).not.toContain(FULL_KEY);
    expect(container.innerHTML).not.toContain('abcdefghijklmnop');
    expect((screen.getByLabelText('Workspace API Key') as HTMLInputElement).value).toBe('');
  });

  it('when a new key is saved, then it is PUT as { value }, the field clears and "API Key Updated" shows', async () => {
    const { calls } = settingsServer({
      me: workspaceAdmin,
      routes: {
        'PUT /api/workspaces/1/settings/openai_api_key': () =>
          answer(200, { key: 'openai_api_key', value: 'sk-…9999', scope: 'workspace' }),
      },
    });
    renderAdmin('/settings');
    const field = (await screen.findByLabelText('Workspace API Key')) as HTMLInputElement;
    const save = screen.getByRole('button', { name: 'Save Workspace API Key' });
    expect((save as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(field, { target: { value: ' sk-new-key-0000000000009999 ' } });
    act(() => save.click());

    expect(await screen.findByText('API Key Updated')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.url).toBe('/api/workspaces/1/settings/openai_api_key');
    expect(put.body).toEqual({ value: 'sk-new-key-0000000000009999' });
    expect(field.value).toBe('');
  });

  it('when saving the key fails, then "Failed to update API key" shows with the reason', async () => {
    settingsServer({
      me: workspaceAdmin,
      routes: {
        'PUT /api/workspaces/1/settings/openai_api_key': () =>
          answer(400, { code: 'VALIDATION.FAILED', message: 'API key is required' }),
      },
    });
    renderAdmin('/settings');
    fireEvent.change(await screen.findByLabelText('Workspace API Key'), {
      target: { value: 'sk-x' },
    });
    act(() => screen.getByRole('button', { name: 'Save Workspace API Key' }).click());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to update API key');
    expect(alert.textContent).toContain('API key is required');
  });

  it.each([
    [
      { success: true, message: 'Connected: 3 models' },
      200,
      'Connection Successful',
      'Connected: 3 models',
    ],
    [{ success: false, message: 'Invalid API key' }, 200, 'Connection Failed', 'Invalid API key'],
    [
      { code: 'INTERNAL', message: 'Something went wrong' },
      500,
      'Connection Test Failed',
      'Something went wrong',
    ],
  ])(
    'when the connection test answers %j (%i), then "%s" shows with the message',
    async (body, status, title, message) => {
      const { calls } = settingsServer({
        me: workspaceAdmin,
        routes: { 'POST /api/test-openai-connection': () => answer(status, body) },
      });
      renderAdmin('/settings');
      const button = await screen.findByRole('button', { name: 'Test Connection' });
      act(() => button.click());
      expect(await screen.findByText(title)).toBeTruthy();
      expect(screen.getByText(message)).toBeTruthy();
      expect(calls.find((call) => call.method === 'POST')!.body).toEqual({ workspaceId: 1 });
    },
  );

  it('when a default model is changed and saved, then it is PUT and its own button waits for a change', async () => {
    const { calls } = settingsServer({
      me: superAdmin,
      routes: {
        'PUT /api/settings/default_image_model': () =>
          answer(200, { key: 'default_image_model', value: 'gpt-image-1' }),
      },
    });
    renderAdmin('/settings');
    const select = (await screen.findByLabelText('Default Image Model')) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('dall-e-3'));
    const save = screen.getByRole('button', { name: 'Save Default Image Model' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect(
      (screen.getByRole('button', { name: 'Save Default Text Model' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);

    fireEvent.change(select, { target: { value: 'gpt-image-1' } });
    act(() => save.click());

    expect(await screen.findByText('Default Model Updated')).toBeTruthy();
    expect(writes(calls)).toEqual(['PUT /api/settings/default_image_model']);
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ value: 'gpt-image-1' });
  });

  it('when saving a default model fails, then "Failed to update default text model" shows', async () => {
    settingsServer({
      me: superAdmin,
      routes: {
        'PUT /api/settings/default_text_model': () =>
          answer(403, { code: 'AUTH.FORBIDDEN', message: 'No' }),
      },
    });
    renderAdmin('/settings');
    const select = (await screen.findByLabelText('Default Text Model')) as HTMLSelectElement;
    await waitFor(() => expect(select.disabled).toBe(false));
    fireEvent.change(select, { target: { value: 'gpt-4-turbo' } });
    act(() => screen.getByRole('button', { name: 'Save Default Text Model' }).click());
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to update default text model',
    );
  });
});
