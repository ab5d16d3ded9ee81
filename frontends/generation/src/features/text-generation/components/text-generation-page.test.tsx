import '../../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  admin,
  buildContent,
  buildPrompt,
  json,
  member,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

const PROMPTS = '/api/prompts?workspaceId=1&contentType=text';
const blog = buildPrompt({ id: 'blog', name: 'Blog post', variables: ['topic', 'language'] });
const tweet = buildPrompt({
  id: 'tweet',
  name: 'Tweet',
  category: 'Technical',
  model: 'gpt-3.5-turbo',
  variables: ['product'],
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('Text Generation page', () => {
  it('when Generate Text is pressed without a prompt, then "Please select a prompt" shows and nothing is sent', async () => {
    const calls = stubGenerationApi(admin, { [`GET ${PROMPTS}`]: () => json([blog, tweet]) });
    renderGeneration('/text-generation');
    await screen.findByRole('button', { name: /Blog post/ });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Text' }));
    expect(await screen.findByText('Please select a prompt')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/generate')).toBe(false);
  });

  it('when prompts are searched and filtered by category, then only matching cards remain', async () => {
    stubGenerationApi(admin, { [`GET ${PROMPTS}`]: () => json([blog, tweet]) });
    renderGeneration('/text-generation');
    await screen.findByRole('button', { name: /Blog post/ });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Technical' } });
    expect(screen.queryByRole('button', { name: /Blog post/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Tweet/ })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText('Search prompts'), { target: { value: 'blog' } });
    expect(screen.getByRole('button', { name: /Blog post/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Tweet/ })).toBeNull();
  });

  it('when an admin opens ?promptId= and generates, then the prompt, inputs, language and model are sent and the answer shows', async () => {
    const calls = stubGenerationApi(admin, {
      [`GET ${PROMPTS}`]: () => json([blog, tweet]),
      'POST /api/generate': () =>
        json({ result: { text: 'A **post** about shoes' }, content: { id: 'c1' } }),
    });
    renderGeneration('/text-generation?promptId=tweet');
    const card = await screen.findByRole('button', { name: /Tweet/ });
    expect(card.getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByLabelText('Model') as HTMLSelectElement).value).toBe('gpt-3.5-turbo');

    fireEvent.click(screen.getByRole('button', { name: /Blog post/ }));
    await waitFor(() =>
      expect((screen.getByLabelText('Model') as HTMLSelectElement).value).toBe('gpt-4o'),
    );
    fireEvent.change(screen.getByLabelText('topic'), { target: { value: 'shoes' } });
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'nl' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'gpt-4-turbo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Text' }));

    expect(await screen.findByText('Content generated successfully')).toBeTruthy();
    const thread = screen.getByRole('list', { name: 'Conversation' });
    expect(within(thread).getByText(/about shoes/)).toBeTruthy();
    const sent = calls.find((c) => c.url === '/api/generate');
    expect(sent?.body).toEqual({
      promptId: 'blog',
      inputs: { topic: 'shoes', language: 'nl' },
      model: 'gpt-4-turbo',
      language: 'nl',
      workspaceId: 1,
    });
  });

  it('when a member generates, then there is no model picker and no model is sent', async () => {
    const calls = stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([blog]),
      'POST /api/generate': () => json({ result: { text: 'Hello' }, content: { id: 'c1' } }),
    });
    renderGeneration('/text-generation?promptId=blog');
    await screen.findByLabelText('topic');
    expect(screen.queryByLabelText('Model')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Text' }));
    await screen.findByText('Content generated successfully');
    expect(calls.find((c) => c.url === '/api/generate')?.body).not.toHaveProperty('model');
  });

  it('when a reply is sent with Enter, then it carries the thread and parent id; an empty one is refused', async () => {
    const calls = stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([blog]),
      'POST /api/generate': () => json({ result: { text: 'First answer' }, content: { id: 'c1' } }),
      'POST /api/generate-reply': () =>
        json({ result: { text: 'Shorter answer' }, content: { id: 'c2' } }),
    });
    renderGeneration('/text-generation?promptId=blog');
    await screen.findByLabelText('topic');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Text' }));
    await screen.findByText('First answer');

    const box = screen.getByLabelText('Reply');
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Please enter a message')).toBeTruthy();

    fireEvent.change(box, { target: { value: 'Make it shorter' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(calls.some((c) => c.url === '/api/generate-reply')).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });

    expect(await screen.findByText('Reply generated successfully')).toBeTruthy();
    expect(screen.getByText('Make it shorter')).toBeTruthy();
    expect(screen.getByText('Shorter answer')).toBeTruthy();
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(calls.find((c) => c.url === '/api/generate-reply')?.body).toEqual({
      message: 'Make it shorter',
      conversationHistory: [{ role: 'assistant', content: 'First answer' }],
      model: 'gpt-4o',
      promptId: 'blog',
      workspaceId: 1,
      parentContentId: 'c1',
    });
  });

  it('when generation fails, then "Failed to generate content" shows with the server message', async () => {
    stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([blog]),
      'POST /api/generate': () =>
        json({ code: 'PROVIDER.UNAVAILABLE', message: 'The provider is down' }, 502),
    });
    renderGeneration('/text-generation?promptId=blog');
    await screen.findByLabelText('topic');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Text' }));
    expect(await screen.findByText('Failed to generate content')).toBeTruthy();
    expect(screen.getByText('The provider is down')).toBeTruthy();
  });

  it('when the answer is copied, then "Copied to clipboard" shows; when copying fails, "Failed to copy"', async () => {
    const writeText = jest.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error());
    Object.assign(navigator, { clipboard: { writeText } });
    stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([blog]),
      'POST /api/generate': () => json({ result: { text: 'Copy me' }, content: { id: 'c1' } }),
    });
    renderGeneration('/text-generation?promptId=blog');
    await screen.findByLabelText('topic');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Text' }));
    await screen.findByText('Copy me');
    fireEvent.click(screen.getByRole('button', { name: 'Copy to Clipboard' }));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('Copy me');
    fireEvent.click(screen.getByRole('button', { name: 'Copy to Clipboard' }));
    expect(await screen.findByText('Failed to copy')).toBeTruthy();
    expect(screen.getByText('Could not copy the content to clipboard')).toBeTruthy();
  });

  it('when continuing a saved conversation, then the thread is rebuilt, inputs restored and the record removed', async () => {
    sessionStorage.setItem(
      'continueConversation',
      JSON.stringify({
        contentId: 'c2',
        contentTitle: 'Shoes post',
        initialContent: 'First answer',
        model: 'gpt-4o',
        promptId: 'blog',
        workspaceId: 1,
        metadata: JSON.stringify({ inputs: { topic: 'shoes' } }),
      }),
    );
    const first = buildContent({
      id: 'c1',
      content: 'First answer',
      metadata: { inputs: { topic: 'shoes' } },
    });
    const second = buildContent({
      id: 'c2',
      content: 'Second answer',
      metadata: { originalMessage: 'Add a title' },
    });
    const calls = stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([blog]),
      'GET /api/contents/c2/conversation': () => json([first, second]),
      'POST /api/generate-reply': () => json({ result: { text: 'Third' }, content: { id: 'c3' } }),
    });
    renderGeneration('/text-generation?continue=true');
    expect(await screen.findByRole('heading', { name: 'Continue Conversation' })).toBeTruthy();
    expect(await screen.findByText('Second answer')).toBeTruthy();
    expect(screen.getByText('topic: shoes')).toBeTruthy();
    expect(screen.getByText('Add a title')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByLabelText('topic') as HTMLInputElement).value).toBe('shoes'),
    );
    expect(sessionStorage.getItem('continueConversation')).toBeNull();

    const box = screen.getByLabelText('Reply');
    fireEvent.change(box, { target: { value: 'More' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await screen.findByText('Third');
    expect(calls.find((c) => c.url === '/api/generate-reply')?.body).toMatchObject({
      parentContentId: 'c2',
      conversationHistory: [
        { role: 'user', content: 'topic: shoes' },
        { role: 'assistant', content: 'First answer' },
        { role: 'user', content: 'Add a title' },
        { role: 'assistant', content: 'Second answer' },
      ],
    });
  });

  it('when the saved thread cannot be fetched, then the stored initial content is the one message', async () => {
    sessionStorage.setItem(
      'continueConversation',
      JSON.stringify({
        contentId: 'c9',
        contentTitle: 'Lost',
        initialContent: 'Stored first answer',
        model: 'gpt-4o',
        promptId: null,
        workspaceId: 1,
        metadata: {},
      }),
    );
    stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([blog]),
      'GET /api/contents/c9/conversation': () => json({ message: 'Content not found' }, 404),
    });
    renderGeneration('/text-generation?continue=true');
    expect(await screen.findByText('Stored first answer')).toBeTruthy();
    expect(screen.getAllByRole('listitem', { name: /Assistant|You/ })).toHaveLength(1);
    await waitFor(() => expect(sessionStorage.getItem('continueConversation')).toBeNull());
  });

  it('when the result and a reply arrive, then each is scrolled into view', async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = jest.fn(function (this: Element) {
      scrolled.push(this.textContent ?? '');
    });
    stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([blog]),
      'POST /api/generate': () => json({ result: { text: 'First answer' }, content: { id: 'c1' } }),
      'POST /api/generate-reply': () =>
        json({ result: { text: 'Shorter answer' }, content: { id: 'c2' } }),
    });
    renderGeneration('/text-generation?promptId=blog');
    await screen.findByLabelText('topic');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Text' }));
    await screen.findByText('First answer');
    await waitFor(() => expect(scrolled).toContain('First answer'));

    const box = screen.getByLabelText('Reply');
    fireEvent.change(box, { target: { value: 'Make it shorter' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await screen.findByText('Shorter answer');
    await waitFor(() => expect(scrolled).toContain('Shorter answer'));
  });

  it('when Enter is pressed in the last variable field, then the text is generated', async () => {
    const calls = stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([tweet]),
      'POST /api/generate': () => json({ result: { text: 'Hello' }, content: { id: 'c1' } }),
    });
    renderGeneration('/text-generation?promptId=tweet');
    const product = await screen.findByLabelText('product');
    fireEvent.change(product, { target: { value: 'shoes' } });
    fireEvent.keyDown(product, { key: 'Enter' });

    expect(await screen.findByText('Content generated successfully')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/generate')?.body).toMatchObject({
      promptId: 'tweet',
      inputs: { product: 'shoes' },
    });
  });
});
