import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer } from '@aict/web-kit/testing';
import { renderAdmin } from '../../../test/render-admin';
import { admin, buildPrompt, member, promptsServer, writes } from '../../../test/prompts-api';

// SPEC §2 "Prompt detail", §4 (after update the details tab), §5 reference images, §6 (what
// non-admins see), §7 calls, §8 texts.

beforeEach(() => {
  localStorage.clear();
  act(() => dismissToast());
});

const tabs = () => screen.getAllByRole('tab').map((tab) => tab.textContent);
const selectedTab = () =>
  screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')
    ?.textContent;
const openEdit = () => act(() => screen.getByRole('tab', { name: 'Edit Prompt' }).click());
const toastText = async (title: string) =>
  (await screen.findByText(title)).closest('li')?.textContent ?? '';

const imagePrompt = (overrides = {}) =>
  buildPrompt({
    id: 'img',
    name: 'Hero image',
    contentType: 'image',
    model: 'gpt-image-1',
    template: 'A banner of {product} {file}',
    ...overrides,
  });
const pngFile = () => new File(['png'], 'ref.png', { type: 'image/png' });
const pickFile = (file: File) =>
  fireEvent.change(screen.getByLabelText('Reference image file'), { target: { files: [file] } });

async function openPrompt(route: string, name: string) {
  renderAdmin(route);
  return screen.findByRole('heading', { level: 1, name });
}

describe('what the page shows', () => {
  it('when an admin opens a prompt, then both tabs show and the details include the template', async () => {
    promptsServer({
      me: admin,
      prompts: [buildPrompt({ id: 'p1', name: 'Blog post', template: 'Write about {topic}' })],
    });
    await openPrompt('/prompts/p1', 'Blog post');
    expect(tabs()).toEqual(['Prompt Details', 'Edit Prompt']);
    expect(selectedTab()).toBe('Prompt Details');
    expect(screen.getByText('Write about {topic}')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Template' })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Prompt variables' })).getByText('{topic}'),
    ).toBeTruthy();
  });

  it('when a non-admin opens a prompt, then only its name and variables show, never the template', async () => {
    const { calls } = promptsServer({
      me: member,
      prompts: [
        buildPrompt({
          id: 'p1',
          name: 'Blog post',
          template: 'Secret recipe for {topic}',
          userId: 'admin',
        }),
      ],
    });
    await openPrompt('/prompts/p1', 'Blog post');
    expect(calls.map((call) => call.url)).toContain('/api/prompts/p1?workspaceId=1');
    expect(
      within(screen.getByRole('list', { name: 'Prompt variables' })).getByText('{topic}'),
    ).toBeTruthy();
    expect(screen.queryByText(/Secret recipe/)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Template' })).toBeNull();
    expect(screen.queryByText('A prompt for tests')).toBeNull(); // no description either
    expect(screen.queryAllByRole('tab')).toHaveLength(0); // no lone 'Prompt Details' tab
    expect(screen.queryByRole('link', { name: 'Back to Prompts' })).toBeNull();
  });

  it('when the non-admin created the prompt, then they may edit it, without a template field or default switch', async () => {
    promptsServer({
      me: member,
      prompts: [buildPrompt({ id: 'p1', name: 'Mine', userId: member.id })],
    });
    await openPrompt('/prompts/p1', 'Mine');
    openEdit();
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(screen.queryByLabelText('Template')).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Default prompt' })).toBeNull();
  });

  it('when the prompt is a text prompt, then "Generate Text" leads to text generation with it chosen', async () => {
    promptsServer({ me: member, prompts: [buildPrompt({ id: 'p1', name: 'Blog post' })] });
    await openPrompt('/prompts/p1', 'Blog post');
    expect(screen.getByRole('link', { name: 'Generate Text' }).getAttribute('href')).toBe(
      '/text-generation?promptId=p1',
    );
    expect(screen.queryByRole('link', { name: 'Generate Image' })).toBeNull();
  });

  it('when the prompt is an image prompt, then "Generate Image" leads to image generation with it chosen', async () => {
    promptsServer({ me: admin, prompts: [imagePrompt()] });
    await openPrompt('/prompts/img', 'Hero image');
    expect(screen.getByRole('link', { name: 'Generate Image' }).getAttribute('href')).toBe(
      '/image-generation?promptId=img',
    );
  });

  it('when the prompt does not exist or is not visible, then "Prompt Not Found" shows', async () => {
    promptsServer({ me: admin, prompts: [] });
    renderAdmin('/prompts/missing');
    expect(await screen.findByRole('heading', { name: 'Prompt Not Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Prompts' }).getAttribute('href')).toBe(
      '/prompts',
    );
  });

  it('when the prompt cannot be loaded, then "Failed to fetch prompt details" shows', async () => {
    promptsServer({
      me: admin,
      routes: { 'GET /api/prompts/p1?workspaceId=1': () => answer(500, 'boom') },
    });
    renderAdmin('/prompts/p1');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to fetch prompt details')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('editing', () => {
  it('when the edit tab opens, then the form holds the prompt', async () => {
    promptsServer({
      me: admin,
      prompts: [
        buildPrompt({ id: 'p1', name: 'Blog post', category: 'Business', model: 'gpt-4-turbo' }),
      ],
    });
    await openPrompt('/prompts/p1', 'Blog post');
    openEdit();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Blog post');
    expect((screen.getByLabelText('Category') as HTMLSelectElement).value).toBe('Business');
    expect((screen.getByLabelText('Model') as HTMLSelectElement).value).toBe('gpt-4-turbo');
    expect(screen.getByRole('switch', { name: 'Default prompt' })).toBeTruthy();
  });

  it('when the update succeeds, then "Prompt updated successfully" shows and the details tab returns with the change', async () => {
    const { calls } = promptsServer({
      me: admin,
      prompts: [buildPrompt({ id: 'p1', name: 'Blog post' })],
    });
    await openPrompt('/prompts/p1', 'Blog post');
    openEdit();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Blog post v2' } });
    act(() => screen.getByRole('button', { name: 'Save Changes' }).click());

    expect(await screen.findByText('Prompt updated successfully')).toBeTruthy();
    await waitFor(() => expect(selectedTab()).toBe('Prompt Details'));
    expect(screen.getByRole('heading', { level: 1, name: 'Blog post v2' })).toBeTruthy();
    expect(writes(calls)).toEqual(['PUT /api/prompts/p1']);
    expect(calls.find((call) => call.method === 'PUT')!.body).toMatchObject({
      name: 'Blog post v2',
      template: 'Write about {topic} in {language}.',
      workspaceId: 1,
    });
  });

  it('when the name is cleared, then "Name is required" shows and nothing is sent', async () => {
    const { calls } = promptsServer({
      me: admin,
      prompts: [buildPrompt({ id: 'p1', name: 'Blog post' })],
    });
    await openPrompt('/prompts/p1', 'Blog post');
    openEdit();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' ' } });
    act(() => screen.getByRole('button', { name: 'Save Changes' }).click());
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(selectedTab()).toBe('Edit Prompt');
    expect(writes(calls)).toEqual([]);
  });

  it('when the update fails, then "Failed to update prompt" shows with the message and the edit tab stays', async () => {
    promptsServer({
      me: admin,
      prompts: [buildPrompt({ id: 'p1', name: 'Blog post' })],
      routes: {
        'PUT /api/prompts/p1': () =>
          answer(400, { code: 'VALIDATION.FAILED', message: 'Unknown model' }),
      },
    });
    await openPrompt('/prompts/p1', 'Blog post');
    openEdit();
    act(() => screen.getByRole('button', { name: 'Save Changes' }).click());
    expect(await toastText('Failed to update prompt')).toContain('Unknown model');
    expect(selectedTab()).toBe('Edit Prompt');
  });
});

describe('the Reference Image card', () => {
  it.each([
    ['a text prompt', buildPrompt({ id: 'x', name: 'X' })],
    ['an image prompt on dall-e-3', imagePrompt({ id: 'x', name: 'X', model: 'dall-e-3' })],
  ])('when the prompt is %s, then the edit tab has no Reference Image card', async (_, prompt) => {
    promptsServer({ me: admin, prompts: [prompt] });
    await openPrompt('/prompts/x', 'X');
    openEdit();
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Reference Image' })).toBeNull();
  });

  it('when the prompt is an image prompt on gpt-image-1, then the card shows in the edit tab only', async () => {
    promptsServer({ me: admin, prompts: [imagePrompt()] });
    await openPrompt('/prompts/img', 'Hero image');
    expect(screen.queryByRole('heading', { name: 'Reference Image' })).toBeNull();
    openEdit();
    expect(screen.getByRole('heading', { name: 'Reference Image' })).toBeTruthy();
  });

  it('when an image is uploaded, then it is sent as "reference" with its index and the workspace header, and shows', async () => {
    const { calls } = promptsServer({
      me: admin,
      prompts: [imagePrompt({ referenceImageUrls: ['/api/prompts/img/reference-images/0'] })],
    });
    await openPrompt('/prompts/img', 'Hero image');
    openEdit();
    const file = pngFile();
    pickFile(file);
    expect(await screen.findByRole('img', { name: 'Reference image 2' })).toBeTruthy();
    const upload = calls.find((call) => call.method === 'POST')!;
    expect(upload.url).toBe('/api/prompts/img/reference-image');
    expect(upload.headers['x-workspace-id']).toBe('1');
    const form = upload.body as FormData;
    expect(form.get('reference')).toBe(file);
    expect(form.get('index')).toBe('1');
  });

  it('when the file is not an image, then "Invalid file" / "Please upload an image file." shows and nothing is sent', async () => {
    const { calls } = promptsServer({ me: admin, prompts: [imagePrompt()] });
    await openPrompt('/prompts/img', 'Hero image');
    openEdit();
    pickFile(new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect(await toastText('Invalid file')).toContain('Please upload an image file.');
    expect(writes(calls)).toEqual([]);
  });

  it('when four images are stored, then a fifth is refused with "Maximum images reached"', async () => {
    const four = [0, 1, 2, 3].map((n) => `/api/prompts/img/reference-images/${n}`);
    const { calls } = promptsServer({
      me: admin,
      prompts: [imagePrompt({ referenceImageUrls: four })],
    });
    await openPrompt('/prompts/img', 'Hero image');
    openEdit();
    expect(screen.getAllByRole('img', { name: /^Reference image/ })).toHaveLength(4);

    act(() => screen.getByRole('button', { name: 'Upload Image' }).click());
    expect(await toastText('Maximum images reached')).toContain(
      'You can only upload up to 4 reference images.',
    );
    act(() => dismissToast());
    pickFile(pngFile());
    expect(await toastText('Maximum images reached')).toContain(
      'You can only upload up to 4 reference images.',
    );
    expect(writes(calls)).toEqual([]);
  });

  it('when the upload fails, then "Upload failed" shows the server message, or "Failed to upload reference image." without one', async () => {
    promptsServer({
      me: admin,
      prompts: [imagePrompt()],
      routes: {
        'POST /api/prompts/img/reference-image': () =>
          answer(400, { code: 'FILE.INVALID_TYPE', message: 'Only PNG, JPEG and WebP images' }),
      },
    });
    await openPrompt('/prompts/img', 'Hero image');
    openEdit();
    pickFile(pngFile());
    expect(await toastText('Upload failed')).toContain('Only PNG, JPEG and WebP images');

    act(() => dismissToast());
    promptsServer({
      me: admin,
      prompts: [imagePrompt()],
      routes: { 'POST /api/prompts/img/reference-image': () => answer(502, '') },
    });
    pickFile(pngFile());
    expect(await toastText('Upload failed')).toContain('Failed to upload reference image.');
  });

  it('when one image is removed, then it is removed by its index', async () => {
    const two = [0, 1].map((n) => `/api/prompts/img/reference-images/${n}`);
    const { calls } = promptsServer({
      me: admin,
      prompts: [imagePrompt({ referenceImageUrls: two })],
    });
    await openPrompt('/prompts/img', 'Hero image');
    openEdit();
    act(() => screen.getByRole('button', { name: 'Remove reference image 2' }).click());
    await screen.findByText(/\(1 of 4\)/);
    expect(writes(calls)).toEqual(['DELETE /api/prompts/img/reference-image/1']);
    expect(calls.find((call) => call.method === 'DELETE')!.headers['x-workspace-id']).toBe('1');
  });

  it('when Remove All is confirmed, then the prompt is saved with no reference images', async () => {
    const two = [0, 1].map((n) => `/api/prompts/img/reference-images/${n}`);
    const { calls } = promptsServer({
      me: admin,
      prompts: [imagePrompt({ referenceImageUrls: two })],
    });
    await openPrompt('/prompts/img', 'Hero image');
    openEdit();
    act(() => screen.getByRole('button', { name: 'Remove All' }).click());
    const dialog = screen.getByRole('alertdialog', { name: 'Remove all reference images?' });
    act(() => within(dialog).getByRole('button', { name: 'Remove All' }).click());
    expect(await screen.findByText('No reference images yet.')).toBeTruthy();
    expect(writes(calls)).toEqual(['PUT /api/prompts/img']);
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
      referenceImageUrl: null,
      referenceImageUrls: [],
      workspaceId: 1,
    });
  });

  it('when removing fails, then "Failed to remove" shows', async () => {
    promptsServer({
      me: admin,
      prompts: [imagePrompt({ referenceImageUrls: ['/api/prompts/img/reference-images/0'] })],
      routes: { 'DELETE /api/prompts/img/reference-image/0': () => answer(500, 'boom') },
    });
    await openPrompt('/prompts/img', 'Hero image');
    openEdit();
    act(() => screen.getByRole('button', { name: 'Remove reference image 1' }).click());
    expect(await toastText('Failed to remove')).toContain('500: boom');
    expect(screen.getByRole('img', { name: 'Reference image 1' })).toBeTruthy();
  });
});
