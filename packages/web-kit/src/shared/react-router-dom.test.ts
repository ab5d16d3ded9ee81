import fs from 'node:fs';
import path from 'node:path';

// The 'react-router-dom' share key provides only the names listed in react-router-dom.ts (see
// there). A name imported anywhere in the front-ends but missing from that list would be
// undefined at run time; an import from 'react-router' would be a second, unshared router.

const repo = path.resolve(__dirname, '../../../..');
const sharedFile = path.join(__dirname, 'react-router-dom.ts');

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const frontendDirs = fs
  .readdirSync(path.join(repo, 'frontends'))
  .map((name) => path.join(repo, 'frontends', name, 'src'));
const files = [...frontendDirs, path.join(repo, 'packages/web-kit/src')]
  .flatMap(sourceFiles)
  .filter((file) => file !== sharedFile);

const provided = new Set(
  [...fs.readFileSync(sharedFile, 'utf8').matchAll(/^\s+(\w+),$/gm)].map((match) => match[1]),
);

/** Value names imported from `module` in `source` (type-only imports left out). */
function valueImports(source: string, module: string): string[] {
  const pattern = new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s+from\\s+'${module}'`, 'g');
  return [...source.matchAll(pattern)].flatMap(([, typeOnly, names]) =>
    typeOnly
      ? []
      : names!
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name && !name.startsWith('type '))
          .map((name) => name.split(/\s+as\s+/)[0]!),
  );
}

describe('the shared react-router-dom', () => {
  it('when the shared list is read, then it names the usual routing API', () => {
    for (const name of [
      'BrowserRouter',
      'Routes',
      'Route',
      'NavLink',
      'useNavigate',
      'useSearchParams',
    ]) {
      expect(provided).toContain(name);
    }
  });

  it.each(files.map((file) => [path.relative(repo, file), file]))(
    'when %s imports from react-router-dom, then every name is shared',
    (_name, file) => {
      const source = fs.readFileSync(file!, 'utf8');
      const missing = valueImports(source, 'react-router-dom').filter(
        (name) => !provided.has(name),
      );
      expect(missing).toEqual([]);
      expect(source).not.toMatch(/from\s+'react-router(\/[\w-]+)?'/);
    },
  );
});
