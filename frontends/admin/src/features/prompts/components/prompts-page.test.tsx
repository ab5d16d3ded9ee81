import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dismissToast, queryKeys } from '@aict/web-kit';
import { answer, buildWorkspace } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import {
  admin,
  buildPrompt,
  member,
  promptsServer,
  superAdmin,
  writes,
} from '../../../test/prompts-api';
import { canDeletePrompt, canEditPrompt } from '@aict/web-kit';

// SPEC §2 "Prompts list", §6 (who deletes), §7 (the list call), §8 (its texts), §9 (timings).

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

const cards = () => within(screen.getByRole('list', { name: 'Prompts' })).getAllByRole('article');
const cardOf = (name: string) => screen.getByRole('article', { name });
const location = () => screen.getByRole('status', { name: 'location' }).textContent;

describe('who sees the list', () => {
  it('when a non-admin opens /prompts, then "Admin Access Required" shows and no prompt is fetched', async () => {
    const { calls } = promptsServer({ me: member, prompts: [buildPrompt()] });
    renderAdmin('/prompts');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Admin Access Required' + 'You need administrator privileges to access this page.',
    );
    expect(calls.some((call) => call.url.startsWith('/api/prompts'))).toBe(false);
  });

  it('when an admin opens /prompts, then the workspace list is fetched, polled every 15 s and stale after 10 s', async () => {
    const { calls } = promptsServer({ me: admin, prompts: [buildPrompt({ name: 'Launch post' })] });
    const { queryClient } = renderAdmin('/prompts');
    expect(await screen.findByRole('link', { name: 'Launch post' })).toBeTruthy();
    expect(calls.map((call) => call.url)).toContain('/api/prompts?workspaceId=1');
    const query = queryClient.getQueryCache().find({ queryKey: queryKeys.prompts(1) });
    expect(query?.options).toMatchObject({ refetchInterval: 15_000, staleTime: 10_000 });
  });
});

describe('loading, failure and empty states', () => {
  it('when the list is loading, then 6 skeleton cards show', async () => {
    promptsServer({
      me: admin,
      routes: { 'GET /api/prompts?workspaceId=1': () => new Promise(() => undefined) },
    });
    renderAdmin('/prompts');
    await waitFor(() => expect(screen.getAllByTestId('prompt-skeleton')).toHaveLength(6));
    expect(screen.getByText('Loading prompts')).toBeTruthy();
  });

  it('when the list fails, then "Failed to fetch prompts" shows with a way to try again', async () => {
    promptsServer({
      me: admin,
      routes: { 'GET /api/prompts?workspaceId=1': () => answer(500, 'boom') },
    });
    renderAdmin('/prompts');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to fetch prompts')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('when the workspace has no prompts, then "No prompts found" shows with a create link', async () => {
    promptsServer({ me: admin, prompts: [] });
    renderAdmin('/prompts');
    expect(await screen.findByRole('heading', { name: 'No prompts found' })).toBeTruthy();
    expect(screen.getByText('There are no prompts available yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).toBeNull();
    const create = screen.getAllByRole('link', { name: 'Create Prompt' });
    expect(create.map((link) => link.getAttribute('href'))).toEqual([
      '/prompts/create',
      '/prompts/create',
    ]);
  });
});

describe('the filters', () => {
  const prompts = () => [
    buildPrompt({ name: 'Blog post', category: 'Marketing', contentType: 'text' }),
    buildPrompt({ name: 'API docs', category: 'Technical', contentType: 'text' }),
    buildPrompt({
      name: 'Hero image',
      category: 'Creative',
      contentType: 'image',
      model: 'dall-e-3',
    }),
  ];

  it('when a category is chosen, then only its prompts show and the URL keeps it', async () => {
    promptsServer({ me: admin, prompts: prompts() });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Blog post' });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Technical' } });
    expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'API docs',
    ]);
    expect(location()).toBe('/prompts?category=Technical');
  });

  it('when a type is chosen, then the list is fetched with that contentType', async () => {
    const { calls } = promptsServer({ me: admin, prompts: prompts() });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Blog post' });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'image' } });
    expect(await screen.findByRole('link', { name: 'Hero image' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Blog post' })).toBeNull();
    expect(calls.map((call) => call.url)).toContain('/api/prompts?workspaceId=1&contentType=image');
  });

  it('when nothing matches the filters, then "No prompts match your selected filters" shows and Clear Filters brings every prompt back', async () => {
    promptsServer({ me: admin, prompts: prompts() });
    renderAdmin('/prompts?category=Business&type=text');
    expect(
      await screen.findByRole('heading', { name: 'No prompts match your selected filters' }),
    ).toBeTruthy();
    expect(screen.queryByText('No prompts found')).toBeNull();
    act(() => screen.getByRole('button', { name: 'Clear Filters' }).click());
    await screen.findByRole('link', { name: 'Hero image' });
    expect(cards()).toHaveLength(3);
    expect(location()).toBe('/prompts');
    expect((screen.getByLabelText('Category') as HTMLSelectElement).value).toBe('all');
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('all');
  });
});

describe('the cards', () => {
  it('when a prompt is the viewer\'s own, then it says "Created by you", otherwise "Public prompt"', async () => {
    promptsServer({
      me: admin,
      prompts: [
        buildPrompt({ name: 'Mine', userId: admin.id }),
        buildPrompt({ name: 'Shared', userId: 'someone', isPublic: true }),
      ],
    });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Mine' });
    expect(within(cardOf('Mine')).getByText('Created by you')).toBeTruthy();
    expect(within(cardOf('Shared')).getByText('Public prompt')).toBeTruthy();
    expect(within(cardOf('Shared')).queryByText('Created by you')).toBeNull();
  });

  it('when a card is shown, then Edit links to the prompt and Run opens it', async () => {
    promptsServer({ me: admin, prompts: [buildPrompt({ id: 'abc', name: 'Launch post' })] });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Launch post' });
    const card = cardOf('Launch post');
    expect(within(card).getByText('Marketing')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Edit Launch post' }).getAttribute('href')).toBe(
      '/prompts/abc',
    );
    act(() => within(card).getByRole('button', { name: 'Run Launch post' }).click());
    expect(location()).toBe('/prompts/abc');
  });
});

describe('deleting a prompt', () => {
  it('when Delete is pressed, then the confirmation asks first; Cancel keeps the prompt', async () => {
    const { calls } = promptsServer({ me: admin, prompts: [buildPrompt({ name: 'Old' })] });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Old' });
    act(() => screen.getByRole('button', { name: 'Delete Old' }).click());
    const dialog = screen.getByRole('alertdialog', { name: 'Delete prompt?' });
    expect(
      within(dialog).getByText(
        'This action cannot be undone. This will permanently delete the prompt.',
      ),
    ).toBeTruthy();
    act(() => within(dialog).getByRole('button', { name: 'Cancel' }).click());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('when the deletion is confirmed, then the prompt is deleted, "Prompt deleted" shows and the card goes', async () => {
    const { calls } = promptsServer({
      me: admin,
      prompts: [buildPrompt({ id: 'p-old', name: 'Old' })],
    });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Old' });
    act(() => screen.getByRole('button', { name: 'Delete Old' }).click());
    const dialog = screen.getByRole('alertdialog', { name: 'Delete prompt?' });
    act(() => within(dialog).getByRole('button', { name: 'Delete' }).click());
    expect(await screen.findByText('Prompt deleted')).toBeTruthy();
    expect(writes(calls)).toEqual(['DELETE /api/prompts/p-old']);
    expect(await screen.findByRole('heading', { name: 'No prompts found' })).toBeTruthy();
  });

  it('when the deletion fails, then "Failed to delete prompt" shows with the server message', async () => {
    promptsServer({
      me: admin,
      prompts: [buildPrompt({ id: 'p-old', name: 'Old' })],
      routes: {
        'DELETE /api/prompts/p-old': () =>
          answer(403, { code: 'AUTH.FORBIDDEN', message: 'You do not have permission to do this' }),
      },
    });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Old' });
    act(() => screen.getByRole('button', { name: 'Delete Old' }).click());
    act(() =>
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }).click(),
    );
    const alert = await screen.findByText('Failed to delete prompt');
    expect(alert.closest('[role="alert"]')?.textContent).toContain(
      'You do not have permission to do this',
    );
    expect(screen.getByRole('link', { name: 'Old' })).toBeTruthy();
  });

  it("when a workspace admin views the list, then Delete is offered on its workspace's prompts but not on another workspace's public prompt", async () => {
    promptsServer({
      me: admin,
      workspaces: [buildWorkspace(1, 'Acme')],
      prompts: [
        buildPrompt({ name: 'Mine', userId: admin.id }),
        buildPrompt({ name: 'Colleague', userId: 'someone' }),
        buildPrompt({ name: 'Elsewhere', userId: 'someone', workspaceId: 2, isPublic: true }),
      ],
    });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Mine' });
    expect(screen.getByRole('button', { name: 'Delete Mine' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Colleague' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Elsewhere' })).toBeNull();
  });

  it('when a super admin views the list, then Delete is offered on every prompt', async () => {
    promptsServer({
      me: superAdmin,
      prompts: [
        buildPrompt({ name: 'Elsewhere', userId: 'someone', workspaceId: 2, isPublic: true }),
      ],
    });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Elsewhere' });
    expect(screen.getByRole('button', { name: 'Delete Elsewhere' })).toBeTruthy();
  });

  it('when a workspace admin views a prompt of their workspace published to every workspace, then neither Delete nor Edit of it is theirs', async () => {
    promptsServer({
      me: admin,
      workspaces: [buildWorkspace(1, 'Acme')],
      prompts: [buildPrompt({ name: 'Published', userId: admin.id, isPublic: true })],
    });
    renderAdmin('/prompts');
    await screen.findByRole('link', { name: 'Published' });
    expect(screen.queryByRole('button', { name: 'Delete Published' })).toBeNull();
    const published = buildPrompt({ userId: admin.id, workspaceId: 1, isPublic: true });
    const inWs1 = { isAdmin: true, currentWorkspaceId: 1 };
    expect(canEditPrompt(admin, published, inWs1)).toBe(false);
    expect(canEditPrompt(superAdmin, published, inWs1)).toBe(true);
  });

  it("when the rule is asked, then the creator and admins of the prompt's workspace may delete, nobody else", () => {
    const prompt = buildPrompt({ userId: 'creator', workspaceId: 1 });
    const user = (id: string, isSuperAdmin = false) => ({ id, isSuperAdmin });
    const inWs1 = { isAdmin: false, currentWorkspaceId: 1 };
    expect(canDeletePrompt(user('creator'), prompt, inWs1)).toBe(true);
    expect(canDeletePrompt(user('other'), prompt, inWs1)).toBe(false);
    expect(canDeletePrompt(user('other'), prompt, { ...inWs1, isAdmin: true })).toBe(true);
    expect(canDeletePrompt(user('other'), prompt, { isAdmin: true, currentWorkspaceId: 2 })).toBe(
      false,
    );
    expect(
      canDeletePrompt(user('root', true), prompt, { isAdmin: true, currentWorkspaceId: 2 }),
    ).toBe(true);
    expect(canDeletePrompt(null, prompt, inWs1)).toBe(false);
  });
});
