import '../../../test/setup';
import { fireEvent, screen, within } from '@testing-library/react';
import {
  admin,
  buildContent,
  buildPrompt,
  json,
  member,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

const prompts = [
  buildPrompt({ id: 'a', name: 'Alpha', category: 'Marketing' }),
  buildPrompt({ id: 'b', name: 'Beta', category: 'Technical', contentType: 'image' }),
  buildPrompt({ id: 'c', name: 'Gamma', category: 'Marketing' }),
  buildPrompt({ id: 'd', name: 'Delta', category: 'Technical' }),
];
const texts = [
  buildContent({ title: 'Launch text', model: 'gpt-4-turbo', language: 'nl', content: 'Hallo' }),
  buildContent({ title: 'Second text' }),
];
const images = Array.from({ length: 4 }, (_, index) =>
  buildContent({
    title: `Image ${index + 1}`,
    contentType: 'image',
    model: 'dall-e-3',
    content: `/api/images/i${index}?workspaceId=1`,
  }),
);

function stub(user = member) {
  return stubGenerationApi(user, {
    'GET /api/stats?workspaceId=1': () =>
      json({ totalPrompts: 12, textContent: 34, imagesGenerated: 5 }),
    'GET /api/prompts?workspaceId=1': () => json(prompts),
    'GET /api/contents?workspaceId=1&type=text&limit=2': () =>
      json({ items: texts, nextCursor: 'n' }),
    'GET /api/contents?workspaceId=1&type=image&limit=4': () =>
      json({ items: images, nextCursor: null }),
  });
}

beforeEach(() => localStorage.clear());

describe('Stats page', () => {
  it('when the stats load, then the three counts show', async () => {
    stub();
    renderGeneration('/stats');
    expect(await screen.findByLabelText('Total Prompts: 12')).toBeTruthy();
    expect(screen.getByLabelText('Text Content: 34')).toBeTruthy();
    expect(screen.getByLabelText('Images Generated: 5')).toBeTruthy();
  });

  it('when recent prompts show, then the first 3 are listed with Edit and Run, and the category filter narrows them', async () => {
    stub(admin);
    renderGeneration('/stats');
    const list = await screen.findByRole('list', { name: 'Recent prompts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByRole('link', { name: 'Edit Alpha' }).getAttribute('href')).toBe(
      '/prompts/a',
    );
    expect(within(list).getByRole('link', { name: 'Run Beta' }).getAttribute('href')).toBe(
      '/image-generation?promptId=b',
    );
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'technical' } });
    const filtered = screen.getByRole('list', { name: 'Recent prompts' });
    expect(
      within(filtered)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('Beta'), expect.stringContaining('Delta')]);
  });

  it('when a member sees recent prompts, then they are offered View, not Edit, on prompts they cannot edit', async () => {
    stub(member);
    renderGeneration('/stats');
    const list = await screen.findByRole('list', { name: 'Recent prompts' });
    expect(within(list).queryByRole('link', { name: /^Edit / })).toBeNull();
    expect(within(list).getByRole('link', { name: 'View Alpha' }).getAttribute('href')).toBe(
      '/prompts/a',
    );
    expect(within(list).getByRole('link', { name: 'Run Alpha' })).toBeTruthy();
  });

  it('when recent texts and images show, then 2 texts with model and language and 4 images are listed', async () => {
    stub();
    renderGeneration('/stats');
    const textList = await screen.findByRole('list', { name: 'Recent text content' });
    expect(within(textList).getAllByRole('listitem')).toHaveLength(2);
    expect(within(textList).getByText('gpt-4-turbo')).toBeTruthy();
    expect(within(textList).getByText('nl')).toBeTruthy();
    expect(within(textList).getByRole('button', { name: 'Copy Launch text' })).toBeTruthy();
    const imageList = await screen.findByRole('list', { name: 'Recent images' });
    expect(within(imageList).getAllByRole('listitem')).toHaveLength(4);
    fireEvent.click(within(imageList).getByRole('button', { name: 'Open Image 2' }));
    expect(await screen.findByRole('button', { name: 'Download Image' })).toBeTruthy();
  });

  it('when Copy is pressed on a recent text, then its whole text is fetched and copied, not the preview', async () => {
    const full = `${'A long answer. '.repeat(20)}The end.`;
    const api = stubGenerationApi(member, {
      'GET /api/stats?workspaceId=1': () =>
        json({ totalPrompts: 1, textContent: 1, imagesGenerated: 0 }),
      'GET /api/prompts?workspaceId=1': () => json(prompts),
      'GET /api/contents?workspaceId=1&type=text&limit=2': () =>
        json({ items: [{ ...texts[0], content: full.slice(0, 80) }], nextCursor: null }),
      'GET /api/contents?workspaceId=1&type=image&limit=4': () =>
        json({ items: [], nextCursor: null }),
      [`GET /api/contents/${texts[0]!.id}`]: () => json({ ...texts[0], content: full }),
    });
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderGeneration('/stats');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy Launch text' }));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(full);
    expect(api.some((call) => call.url === `/api/contents/${texts[0]!.id}`)).toBe(true);
  });

  it('when the View All links are read, then they lead to the prompts and the two histories', async () => {
    stub();
    renderGeneration('/stats');
    await screen.findByLabelText('Total Prompts: 12');
    expect(screen.getByRole('link', { name: 'View All Prompts' }).getAttribute('href')).toBe(
      '/prompts',
    );
    expect(screen.getByRole('link', { name: 'View All Text Content' }).getAttribute('href')).toBe(
      '/history?type=text',
    );
    expect(screen.getByRole('link', { name: 'View All Images' }).getAttribute('href')).toBe(
      '/history?type=image',
    );
  });
});
