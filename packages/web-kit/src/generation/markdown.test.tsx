import { render, screen } from '@testing-library/react';
import { Markdown } from './markdown';

const HOSTILE = [
  '# Answer',
  '',
  'Hello <script>window.__pwned = "script"</script> there.',
  '',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  '',
  "[click me](javascript:window.__pwned='link')",
  '',
  '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
  '',
  '![tracker](https://evil.example/pixel.png)',
  '',
  '![local chart](/api/images/c1?workspaceId=1)',
  '',
  '![vector](/logo.svg)',
  '',
  '<a href="https://evil.example" onclick="window.__pwned = \'click\'">raw link</a>',
  '',
  '[docs](https://example.com/docs) and **bold**',
].join('\n');

async function renderMarkdown(text: string) {
  const view = render(<Markdown>{text}</Markdown>);
  await screen.findByRole('heading', { name: 'Answer' }, { timeout: 15_000 });
  return view;
}

describe('<Markdown>', () => {
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>).__pwned;
  });

  it('when a hostile answer renders, then no script, handler, svg or raw html reaches the page', async () => {
    const { container } = await renderMarkdown(HOSTILE);
    expect(container.querySelector('script, svg, iframe, object, embed, style')).toBeNull();
    for (const element of container.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        expect(attribute.name).not.toMatch(/^on/i);
        expect(attribute.value).not.toMatch(/javascript:/i);
      }
    }
    expect((window as unknown as Record<string, unknown>).__pwned).toBeUndefined();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
  });

  it('when a javascript: link is written, then it renders as inert text', async () => {
    const { container } = await renderMarkdown(HOSTILE);
    const text = screen.getByText('click me');
    expect(text.closest('a')).toBeNull();
    expect(container.querySelectorAll('a[href^="javascript"]')).toHaveLength(0);
  });

  it('when a link is written, then it opens in a new tab without opener or referrer', async () => {
    await renderMarkdown(HOSTILE);
    const link = screen.getByRole('link', { name: 'docs' });
    expect(link).toHaveProperty('href', 'https://example.com/docs');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('when an image is on another site, then it is not loaded but offered as a link with its alt text', async () => {
    const { container } = await renderMarkdown(HOSTILE);
    expect(container.querySelector('img[src*="evil.example"]')).toBeNull();
    const link = screen.getByRole('link', { name: 'tracker' });
    expect(link.getAttribute('href')).toBe('https://evil.example/pixel.png');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('when an image is on this site, then it shows; an SVG image does not', async () => {
    const { container } = await renderMarkdown(HOSTILE);
    expect(screen.getByRole('img', { name: 'local chart' }).getAttribute('src')).toBe(
      '/api/images/c1?workspaceId=1',
    );
    expect(container.querySelector('img[src$=".svg"]')).toBeNull();
    expect(screen.getByText('vector')).toBeTruthy();
  });
});
