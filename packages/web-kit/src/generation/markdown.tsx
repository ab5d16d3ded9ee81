import { Suspense, lazy } from 'react';
import { cn } from '../lib/cn';
import { createMarkdownRenderer } from './markdown-renderer';

// react-markdown and its parser (~40 KB gzip) load on first use, in their own chunk: web-kit
// is on the shell's first screen, an answer is not.
const MarkdownRenderer = lazy(async () => {
  const [reactMarkdown, sanitize, styles] = await Promise.all([
    import('react-markdown'),
    import('rehype-sanitize'),
    // loaded with the renderer; jest (no CSS transform) gets no class names
    import('./markdown.module.css').then(
      (m) => m.default,
      () => ({}),
    ),
  ]);
  return { default: createMarkdownRenderer(reactMarkdown, sanitize.default, styles) };
});

export interface MarkdownProps {
  /** The markdown source (an AI answer: untrusted). */
  children: string;
  className?: string;
}

/**
 * Renders untrusted markdown safely: no raw HTML, sanitised (rehype-sanitize), links open in a
 * new tab without opener or referrer, `javascript:` and other unsafe links are inert text,
 * images only from this site (others become a link showing their alt text), no SVG.
 * Until the renderer has loaded, the text shows as plain text.
 */
export function Markdown({ children, className }: MarkdownProps) {
  return (
    <Suspense fallback={<div className={cn('wk-markdown', className)}>{children}</div>}>
      <MarkdownRenderer className={className}>{children}</MarkdownRenderer>
    </Suspense>
  );
}
