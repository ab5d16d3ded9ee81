import fs from 'node:fs';
import path from 'node:path';

/**
 * Jest has no transform for CSS: a component that imports `./x.module.css` could not load in a
 * component test. Call this at the top of a test file, BEFORE importing the components (an
 * import of this module first is enough when the call is at its top level), with the folder
 * whose `*.module.css` files to replace. Each class name maps to itself (`styles.thumb` is
 * `"thumb"`), so a test may load the real rules with `loadStylesheet` and read them through
 * `getComputedStyle` (jsdom applies plain rules; it ignores `@media` blocks and does no layout).
 */
export function mockCssModules(dir: string): void {
  for (const file of cssModulesIn(dir)) jest.mock(file, classNamesAsThemselves);
}

/** A CSS module whose every class name is itself, usable as a default or a namespace import. */
function classNamesAsThemselves(): Record<string, unknown> {
  const styles: Record<string, unknown> = new Proxy(
    {},
    {
      get: (_, key) => {
        if (key === '__esModule') return true;
        if (key === 'default') return styles;
        return typeof key === 'string' ? key : undefined;
      },
    },
  );
  return styles;
}

/** Adds the CSS file at `file` to the test document (see `mockCssModules`); returns a remover. */
export function loadStylesheet(file: string): () => void {
  const style = document.createElement('style');
  style.textContent = fs.readFileSync(file, 'utf8');
  document.head.appendChild(style);
  return () => style.remove();
}

function cssModulesIn(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : cssModulesIn(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });
}
