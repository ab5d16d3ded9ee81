import '../../../test/setup';
import path from 'node:path';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { loadStylesheet } from '@aict/web-kit/testing';
import {
  admin,
  buildPrompt,
  json,
  member,
  renderGeneration,
  stubGenerationApi,
} from '../../../test/generation-api';

const PROMPTS = '/api/prompts?workspaceId=1&contentType=image';
const banner = buildPrompt({
  id: 'banner',
  name: 'Banner',
  contentType: 'image',
  model: 'dall-e-3',
  variables: ['subject', 'style'],
});
const product = buildPrompt({
  id: 'product',
  name: 'Product shot',
  contentType: 'image',
  model: 'gpt-image-1',
  variables: ['subject', 'file'],
});

beforeEach(() => localStorage.clear());
afterEach(() => jest.restoreAllMocks());

describe('Image Generation page', () => {
  it('when fields are empty, then "Missing information" names them and nothing is sent', async () => {
    const calls = stubGenerationApi(member, { [`GET ${PROMPTS}`]: () => json([banner]) });
    renderGeneration('/image-generation?promptId=banner');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a cat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByText('Missing information')).toBeTruthy();
    expect(screen.getByText('Please fill in the following fields: style')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('when a gpt-image-1 prompt with {file} has no upload, then "Missing file" shows', async () => {
    const calls = stubGenerationApi(member, { [`GET ${PROMPTS}`]: () => json([product]) });
    renderGeneration('/image-generation?promptId=product');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a shoe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByText('Missing file')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('when a non-image file is chosen, then it is refused with "Invalid file"', async () => {
    stubGenerationApi(member, { [`GET ${PROMPTS}`]: () => json([product]) });
    renderGeneration('/image-generation?promptId=product');
    const input = await screen.findByLabelText(/Reference image/);
    fireEvent.change(input, {
      target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(await screen.findByText('Invalid file')).toBeTruthy();
    expect(screen.queryByText('notes.txt')).toBeNull();
  });

  it('when an image is generated with a reference image, then it goes as multipart and the GPT-Image result downloads as .png', async () => {
    const calls = stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([product]),
      'POST /api/generate-with-image': () =>
        json({
          result: { imageUrl: '/api/images/c1?workspaceId=1', b64_json: 'aGVsbG8=' },
          content: { id: 'c1' },
        }),
    });
    renderGeneration('/image-generation?promptId=product');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a shoe' } });
    const photo = new File(['png'], 'shoe.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText(/Reference image/), { target: { files: [photo] } });
    expect(await screen.findByText('shoe.png')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));

    expect(await screen.findByText('Content generated successfully')).toBeTruthy();
    expect(screen.getByText('GPT-Image')).toBeTruthy();
    const image = screen.getByRole('img', { name: /Generated with Product shot/ });
    expect(image.getAttribute('src')).toBe('data:image/png;base64,aGVsbG8=');
    const form = calls.find((c) => c.url === '/api/generate-with-image')?.body as FormData;
    expect(form.get('promptId')).toBe('product');
    expect(form.get('model')).toBe('gpt-image-1');
    expect(form.get('inputs[subject]')).toBe('a shoe');
    expect(form.get('workspaceId')).toBe('1');
    expect((form.get('file') as File).name).toBe('shoe.png');

    const saved: string[] = [];
    URL.createObjectURL = jest.fn(() => 'blob:x');
    URL.revokeObjectURL = jest.fn();
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      blob: async () => new Blob(['png']),
    })) as unknown as typeof fetch;
    fireEvent.click(screen.getByRole('button', { name: 'Download Image' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatch(/^generated-image-\d+\.png$/);
    expect(globalThis.fetch).not.toHaveBeenCalled(); // saved from the base64 data kept
  });

  it('when an admin generates without a file, then JSON goes to /api/generate with the chosen model', async () => {
    const calls = stubGenerationApi(admin, {
      [`GET ${PROMPTS}`]: () => json([banner]),
      'POST /api/generate': () =>
        json({ result: { imageUrl: '/api/images/c2?workspaceId=1' }, content: { id: 'c2' } }),
    });
    renderGeneration('/image-generation?promptId=banner');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a cat' } });
    fireEvent.change(screen.getByLabelText('style'), { target: { value: 'flat' } });
    expect((screen.getByLabelText('Model') as HTMLSelectElement).value).toBe('dall-e-3');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    await screen.findByText('Content generated successfully');
    expect(screen.getByRole('img', { name: /Generated with Banner/ }).getAttribute('src')).toBe(
      '/api/images/c2?workspaceId=1',
    );
    expect(screen.queryByText('GPT-Image')).toBeNull();
    expect(calls.find((c) => c.url === '/api/generate')?.body).toEqual({
      promptId: 'banner',
      inputs: { subject: 'a cat', style: 'flat' },
      model: 'dall-e-3',
      workspaceId: 1,
    });
  });

  it('when generation fails, then "Failed to generate image" shows the server message', async () => {
    stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([banner]),
      'POST /api/generate': () => json({ message: 'No API key configured' }, 400),
    });
    renderGeneration('/image-generation?promptId=banner');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a cat' } });
    fireEvent.change(screen.getByLabelText('style'), { target: { value: 'flat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByText('Failed to generate image')).toBeTruthy();
    expect(screen.getByText('No API key configured')).toBeTruthy();
  });

  it('when an image is generated, then it keeps its aspect ratio and is scrolled into view', async () => {
    const removeCss = loadStylesheet(path.resolve(__dirname, '../../../lib/generation.module.css'));
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = jest.fn(function (this: Element) {
      scrolled.push(this);
    });
    stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([banner]),
      'POST /api/generate': () =>
        json({ result: { imageUrl: '/api/images/c2?workspaceId=1' }, content: { id: 'c2' } }),
    });
    renderGeneration('/image-generation?promptId=banner');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a cat' } });
    fireEvent.change(screen.getByLabelText('style'), { target: { value: 'flat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));

    const image = await screen.findByRole('img', { name: /Generated with Banner/ });
    const style = getComputedStyle(image);
    expect(style.objectFit).toBe('contain'); // never 'fill' (stretched)
    expect(style.alignSelf).not.toBe('stretch');
    expect(style.alignSelf).not.toBe('');
    expect(style.height).toBe('auto');
    await waitFor(() =>
      expect(scrolled).toContain(screen.getByRole('region', { name: 'Generated image' })),
    );
    removeCss();
  });

  it("when another prompt is chosen, then the previous prompt's image is gone", async () => {
    const poster = buildPrompt({
      id: 'poster',
      name: 'Poster',
      contentType: 'image',
      model: 'dall-e-3',
      variables: ['subject'],
    });
    stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([banner, poster]),
      'POST /api/generate': () =>
        json({ result: { imageUrl: '/api/images/c2?workspaceId=1' }, content: { id: 'c2' } }),
    });
    renderGeneration('/image-generation?promptId=banner');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a cat' } });
    fireEvent.change(screen.getByLabelText('style'), { target: { value: 'flat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    await screen.findByRole('img', { name: /Generated with Banner/ });

    fireEvent.click(screen.getByRole('button', { name: /Poster/ }));

    await screen.findByText('Inputs for Poster');
    expect(screen.queryByRole('region', { name: 'Generated image' })).toBeNull();
    expect(screen.queryByRole('img', { name: /Generated with/ })).toBeNull();
  });

  it('when Enter is pressed in the last variable field, then the image is generated', async () => {
    const calls = stubGenerationApi(member, {
      [`GET ${PROMPTS}`]: () => json([banner]),
      'POST /api/generate': () =>
        json({ result: { imageUrl: '/api/images/c2?workspaceId=1' }, content: { id: 'c2' } }),
    });
    renderGeneration('/image-generation?promptId=banner');
    fireEvent.change(await screen.findByLabelText('subject'), { target: { value: 'a cat' } });
    fireEvent.keyDown(screen.getByLabelText('subject'), { key: 'Enter' });
    expect(calls.some((c) => c.url === '/api/generate')).toBe(false); // not the last field
    const style = screen.getByLabelText('style');
    fireEvent.change(style, { target: { value: 'flat' } });
    fireEvent.keyDown(style, { key: 'Enter' });

    expect(await screen.findByText('Content generated successfully')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/generate')).toHaveLength(1);
  });
});
