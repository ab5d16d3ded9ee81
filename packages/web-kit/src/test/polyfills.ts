import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks TextEncoder/TextDecoder, which React Router 7 uses when it loads.
const scope = globalThis as unknown as Record<string, unknown>;
scope.TextEncoder ??= TextEncoder;
scope.TextDecoder ??= TextDecoder;

// jsdom has no matchMedia: a wide, light screen unless a test stubs another.
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}
