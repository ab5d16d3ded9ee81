import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

// The layer rules of .dependency-cruiser.cjs (run by `npm run depcruise`, part of `npm run
// lint`), checked on a small tree of files: each forbidden import is reported under its rule,
// and the imports the layers allow are not.

const ROOT = join(__dirname, '..');
const run = promisify(execFile);

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

let dir: string;

function write(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

async function violations(): Promise<Array<[string, string, string]>> {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  const args = ['services', 'gateway', 'packages', 'frontends'];
  const config = join(ROOT, '.dependency-cruiser.cjs');
  const out = await run(bin, [...args, '--config', config, '--output-type', 'json'], {
    cwd: dir,
  }).catch((err: { stdout: string; stderr: string }) => err); // exits 1 on a violation
  if (!out.stdout) throw new Error(`depcruise printed nothing: ${out.stderr}`);
  const result = JSON.parse(out.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations.map((v) => [v.rule.name, v.from, v.to]);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'layer-rules-'));
  write({
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'node16', jsx: 'react-jsx' } }),
    // allowed: routes → domain → data, routes → presenters, presenter naming a domain type,
    // domain → outbound client
    'gateway/src/index.ts': 'export const gateway = 0;\n',
    'services/a/src/data/a.repository.ts': 'export const find = () => 1;\n',
    'services/a/src/domain/view.ts':
      "import { find } from '../data/a.repository';\nexport type View = { n: number };\nexport const view = (): View => ({ n: find() });\n",
    'services/a/src/presenters/a.presenter.ts':
      "import type { View } from '../domain/view';\nexport const present = (v: View) => v.n;\n",
    'services/a/src/routes/a.routes.ts':
      "import { view } from '../domain/view';\nimport { present } from '../presenters/a.presenter';\nexport const handle = () => present(view());\n",
    'services/a/src/rpc/b.client.ts': 'export const ask = () => 2;\n',
    'services/a/src/domain/ask.ts':
      "import { ask } from '../rpc/b.client';\nexport const asked = ask;\n",
    // forbidden
    'services/a/src/domain/presents.ts':
      "import { present } from '../presenters/a.presenter';\nexport const p = present;\n",
    'services/a/src/domain/routes-back.ts':
      "import { handle } from '../routes/a.routes';\nexport const h = handle;\n",
    'services/a/src/data/knows-domain.ts':
      "import { view } from '../domain/view';\nexport const v = view;\n",
    'services/a/src/presenters/calls-use-case.ts':
      "import { view } from '../domain/view';\nexport const v = view;\n",
    'services/b/src/domain/other-service.ts':
      "import { find } from '../../../a/src/data/a.repository';\nexport const f = find;\n",
    'frontends/chat/src/features/one/one.tsx':
      "import { Two } from '../two/two';\nexport const One = Two;\n",
    'frontends/chat/src/features/two/two.tsx':
      "import { shared } from '../../lib/shared';\nexport const Two = shared;\n",
    'frontends/chat/src/lib/shared.ts': 'export const shared = 3;\n',
    'frontends/chat/src/app/App.tsx':
      "import { One } from '../features/one/one';\nimport { Two } from '../features/two/two';\nexport const App = [One, Two];\n",
    'frontends/generation/src/app/App.tsx':
      "import { App as Chat } from '../../../chat/src/app/App';\nexport const App = Chat;\n",
    'packages/kit/src/index.ts':
      "import { handle } from '../../../services/a/src/routes/a.routes';\nexport const h = handle;\n",
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the layer rules', () => {
  it('when files import across the layers, then each forbidden import is reported under its rule and nothing else is', async () => {
    const found = await violations();

    expect(found.sort()).toEqual(
      [
        [
          'data-not-to-upper-layers',
          'services/a/src/data/knows-domain.ts',
          'services/a/src/domain/view.ts',
        ],
        [
          'domain-not-to-entry-points',
          'services/a/src/domain/routes-back.ts',
          'services/a/src/routes/a.routes.ts',
        ],
        [
          'domain-not-to-presenters',
          'services/a/src/domain/presents.ts',
          'services/a/src/presenters/a.presenter.ts',
        ],
        [
          'no-cross-feature-imports',
          'frontends/chat/src/features/one/one.tsx',
          'frontends/chat/src/features/two/two.tsx',
        ],
        [
          'no-cross-service-imports',
          'services/b/src/domain/other-service.ts',
          'services/a/src/data/a.repository.ts',
        ],
        [
          'no-remote-to-remote-imports',
          'frontends/generation/src/app/App.tsx',
          'frontends/chat/src/app/App.tsx',
        ],
        ['packages-not-to-apps', 'packages/kit/src/index.ts', 'services/a/src/routes/a.routes.ts'],
        [
          'presenters-not-to-upper-layers',
          'services/a/src/presenters/calls-use-case.ts',
          'services/a/src/domain/view.ts',
        ],
      ].sort(),
    );
  }, 60_000);
});
