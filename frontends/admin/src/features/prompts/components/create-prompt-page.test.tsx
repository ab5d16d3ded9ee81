import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer, renderWithProviders } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { admin, member, promptsServer, superAdmin, writes } from '../../../test/prompts-api';
import { CreatePromptPage } from './create-prompt-page';

// SPEC §2 "Create prompt", §4 "Prompt form", §5 prompt form rules, §6, §8 texts.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

const field = (label: string) =>
  screen.getByLabelText(label) as HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement;
const change = (label: string, value: string) =>
  fireEvent.change(field(label), { target: { value } });
const submit = () => act(() => screen.getByRole('button', { name: 'Create Prompt' }).click());
const location = () => screen.getByRole('status', { name: 'location' }).textContent;
const optionsOf = (label: string) =>
  within(field(label))
    .getAllByRole('option')
    .map((option) => (option as HTMLOptionElement).value)
    .filter(Boolean);

async function openForm(me = admin) {
  const server = promptsServer({ me });
  renderAdmin('/prompts/create');
  await screen.findByRole('heading', { name: 'Create Prompt' });
  return server;
}

describe('who may create', () => {
  it('when a non-admin opens /prompts/create, then they are sent to /', async () => {
    promptsServer({ me: member });
    renderAdmin('/prompts/create');
    await screen.findByText('/', { selector: 'output' });
    expect(location()).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Create Prompt' })).toBeNull();
  });

  it('when the page itself renders for a non-admin, then "Admin Access Required" / "Only administrators can create new prompts." shows', async () => {
    promptsServer({ me: member });
    renderWithProviders(<CreatePromptPage />, { route: '/prompts/create' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Admin Access Required' + 'Only administrators can create new prompts.',
    );
    expect(screen.queryByLabelText('Name')).toBeNull();
  });

  it('when a super admin opens the form, then it shows with the default switch', async () => {
    await openForm(superAdmin);
    expect(screen.getByRole('switch', { name: 'Default prompt' })).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Public' })).toBeTruthy();
  });
});

describe('the form', () => {
  it("when a workspace admin opens it, then there is no Public switch (publishing to every workspace is the super admin's)", async () => {
    await openForm(admin);
    expect(screen.queryByRole('switch', { name: 'Public' })).toBeNull();
    expect(screen.getByRole('switch', { name: 'Default prompt' })).toBeTruthy();
  });

  it('when it opens, then category is Marketing, type text and model gpt-4o, not public, not default', async () => {
    await openForm(superAdmin);
    expect(field('Category').value).toBe('Marketing');
    expect(field('Content type').value).toBe('text');
    expect(field('Model').value).toBe('gpt-4o');
    expect((screen.getByRole('switch', { name: 'Public' }) as HTMLInputElement).checked).toBe(
      false,
    );
    expect(
      (screen.getByRole('switch', { name: 'Default prompt' }) as HTMLInputElement).checked,
    ).toBe(false);
  });

  it('when it is sent empty, then "Name is required" and "Template is required" show and nothing is sent', async () => {
    const { calls } = await openForm();
    submit();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Template is required')).toBeTruthy();
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Name'));
    expect(writes(calls)).toEqual([]);
  });

  it('when category and model are cleared, then "Category is required" and "Model is required" show', async () => {
    const { calls } = await openForm();
    change('Name', 'Launch post');
    change('Template', 'Write about {topic}');
    change('Category', '');
    change('Model', '');
    submit();
    expect(screen.getByText('Category is required')).toBeTruthy();
    expect(screen.getByText('Model is required')).toBeTruthy();
    expect(screen.queryByText('Name is required')).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it('when the content type changes, then the models follow it and the model resets to gpt-4o or dall-e-3', async () => {
    await openForm();
    expect(optionsOf('Model')).toEqual(['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo']);
    change('Model', 'gpt-4-turbo');
    change('Content type', 'image');
    expect(field('Model').value).toBe('dall-e-3');
    expect(optionsOf('Model')).toEqual(['dall-e-3', 'gpt-image-1']);
    change('Model', 'gpt-image-1');
    change('Content type', 'text');
    expect(field('Model').value).toBe('gpt-4o');
  });

  it('when the template is typed, then its variables show as it changes', async () => {
    await openForm();
    change('Template', 'Write about {topic} for {audience} in {language}. {topic} again.');
    const list = await screen.findByRole('list', { name: 'Template variables' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['{topic}', '{audience}', '{language}']);
    expect(
      screen.getByText('the output language chosen by the user', { exact: false }),
    ).toBeTruthy();
    change('Template', 'Broken {topic');
    expect(await screen.findByText(/Unclosed '\{' at character 8/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Template variables' })).toBeNull();
  });
});

describe('creating', () => {
  it('when a valid prompt is sent, then it is created in the workspace, "Prompt created successfully" shows and its page opens', async () => {
    const { calls } = await openForm(superAdmin);
    change('Name', 'Hero image');
    change('Description', 'Banner art');
    change('Template', 'A banner of {product} {file}');
    change('Category', 'Creative');
    change('Content type', 'image');
    change('Model', 'gpt-image-1');
    act(() => screen.getByRole('switch', { name: 'Public' }).click());
    act(() => screen.getByRole('switch', { name: 'Default prompt' }).click());
    submit();

    expect(await screen.findByText('Prompt created successfully')).toBeTruthy();
    expect(writes(calls)).toEqual(['POST /api/prompts']);
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      name: 'Hero image',
      description: 'Banner art',
      template: 'A banner of {product} {file}',
      category: 'Creative',
      contentType: 'image',
      model: 'gpt-image-1',
      isPublic: true,
      isDefault: true,
      workspaceId: 1,
    });
    await waitFor(() => expect(location()).toBe('/prompts/new-1'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Hero image' })).toBeTruthy();
  });

  it('when creating fails, then "Failed to create prompt" shows with the server message and the form stays', async () => {
    await openForm();
    const { calls } = promptsServer({
      me: admin,
      routes: {
        'POST /api/prompts': () =>
          answer(400, {
            code: 'VALIDATION.FAILED',
            message: 'Name must be at most 200 characters',
          }),
      },
    });
    change('Name', 'Launch post');
    change('Template', 'Write about {topic}');
    submit();
    const title = await screen.findByText('Failed to create prompt');
    expect(title.closest('[role="alert"]')?.textContent).toContain(
      'Name must be at most 200 characters',
    );
    expect(location()).toBe('/prompts/create');
    expect(field('Name').value).toBe('Launch post');
    expect(writes(calls)).toEqual(['POST /api/prompts']);
  });
});
