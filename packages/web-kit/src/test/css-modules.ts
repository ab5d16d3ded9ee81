import fs from 'node:fs';
import path from 'node:path';

/**
 * Jest has no transform for CSS: a component that imports `./x.module.css` could not load in a
 * component test. Call this at the top of a test file, BEFORE importing the components (an
 * import of this module first is enough when the call is at its top level), with the folder
 * whose `*.module.css` files to replace by empty class maps.
 */
export function mockCssModules(dir: string): void {
  for (const file of cssModulesIn(dir)) jest.mock(file, () => ({}));
}

function cssModulesIn(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : cssModulesIn(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });
}
