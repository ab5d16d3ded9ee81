import type { ComponentType } from 'react';
import { cn } from '../lib/cn';

// react-markdown and rehype-sanitize are ESM-only: markdown.tsx loads them with import() (also
// their own chunk) and hands them to createMarkdownRenderer; here only their types are used.
type ReactMarkdownModule = typeof import('react-markdown', {
  with: { 'resolution-mode': 'import' },
});
type Components = import('react-markdown', { with: { 'resolution-mode': 'import' } }).Components;
type RehypeSanitize = (typeof import('rehype-sanitize', {
  with: { 'resolution-mode': 'import' },
}))['default'];

/** A URL the browser may load from this site only: relative, or absolute on this origin. */
export function isSameOriginUrl(url: string): boolean {
  try {
    const base = window.location.origin;
    const resolved = new URL(url, `${base}/`);
    return resolved.origin === base && /^https?:$/.test(resolved.protocol);
  } catch {
    return false;
  }
}

function isSvgUrl(url: string): boolean {
  return /\.svgz?(?:[?#]|$)/i.test(url) || /^data:image\/svg/i.test(url);
}

type Styles = Readonly<Record<string, string>>;

function createComponents(styles: Styles): Components {
  return {
    a({ href, children, node: _node, ...rest }) {
      // defaultUrlTransform turned any unsafe URL (javascript:, data:, vbscript:, …) into ''
      if (!href) return <span className={styles.inertLink}>{children}</span>;
      return (
        <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    },
    img({ src, alt, node: _node }) {
      const url = typeof src === 'string' ? src : '';
      const label = alt || url || 'image';
      if (url && isSameOriginUrl(url) && !isSvgUrl(url)) {
        return <img src={url} alt={alt ?? ''} loading="lazy" className={styles.image} />;
      }
      if (url && /^https?:/i.test(url) && !isSvgUrl(url)) {
        // an image elsewhere is not fetched (no tracking pixel): a link the reader may follow
        return (
          <a href={url} target="_blank" rel="noopener noreferrer">
            {label}
          </a>
        );
      }
      return <span>{label}</span>;
    },
    // never render embedded SVG, even if a future schema let it through
    svg: () => null,
  } as Components;
}

export interface MarkdownRendererProps {
  children: string;
  className?: string | undefined;
}

/** The renderer, built from the loaded modules. */
export function createMarkdownRenderer(
  { default: ReactMarkdown, defaultUrlTransform }: ReactMarkdownModule,
  rehypeSanitize: RehypeSanitize,
  styles: Styles = {},
): ComponentType<MarkdownRendererProps> {
  const components = createComponents(styles);
  return function MarkdownRenderer({ children, className }: MarkdownRendererProps) {
    return (
      <div className={cn('wk-markdown', styles.markdown, className)}>
        <ReactMarkdown
          skipHtml
          rehypePlugins={[rehypeSanitize]}
          urlTransform={defaultUrlTransform}
          components={components}
        >
          {children}
        </ReactMarkdown>
      </div>
    );
  };
}
