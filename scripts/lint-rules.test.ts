import { execFile } from 'node:child_process';
import { join } from 'node:path';

// Import rules of eslint.config.mjs (part of `npm run lint`), checked on code given to ESLint
// (a child process, as `npm run lint` runs it) under the path it would have in the tree.

const ROOT = join(__dirname, '..');

function restricted(filePath: string, code: string): Promise<string[]> {
  const bin = join(ROOT, 'node_modules', '.bin', 'eslint');
  return new Promise((resolve, reject) => {
    const child = execFile(
      bin,
      ['--stdin', '--stdin-filename', filePath, '--format', 'json'],
      { cwd: ROOT },
      // eslint exits 1 when it reports an error: the JSON is on stdout either way
      (_err, stdout, stderr) => {
        try {
          const [result] = JSON.parse(stdout) as Array<{
            messages: Array<{ ruleId: string | null; message: string }>;
          }>;
          resolve(
            result!.messages
              .filter((m) => m.ruleId === 'no-restricted-imports')
              .map((m) => m.message),
          );
        } catch {
          reject(new Error(`eslint printed no report: ${stderr}`));
        }
      },
    );
    child.stdin!.end(code);
  });
}

describe('import rules', () => {
  it('when a front-end imports i18next or react-i18next itself, then lint refuses it and names web-kit', async () => {
    const found = await restricted(
      'frontends/chat/src/features/chat/x.ts',
      "import i18next from 'i18next';\nimport { useTranslation } from 'react-i18next';\nexport const used = [i18next, useTranslation];\n",
    );

    expect(found).toHaveLength(2);
    for (const message of found) expect(message).toContain('Translate through @aict/web-kit');
  });

  it('when web-kit imports them, or a front-end translates through web-kit, then lint allows it', async () => {
    expect(
      await restricted(
        'packages/web-kit/src/i18n/x.ts',
        "import { useTranslation } from 'react-i18next';\nexport const used = useTranslation;\n",
      ),
    ).toEqual([]);
    expect(
      await restricted(
        'frontends/chat/src/features/chat/x.ts',
        "import { useTranslation } from '@aict/web-kit';\nexport const used = useTranslation;\n",
      ),
    ).toEqual([]);
  });

  it('when a front-end imports a package by a path into its sources, then lint still refuses it', async () => {
    const found = await restricted(
      'frontends/chat/src/features/chat/x.ts',
      "import { cn } from '../../../../../packages/web-kit/src/lib/cn';\nexport const used = cn;\n",
    );

    expect(found).toEqual([expect.stringContaining('Import a package by its name')]);
  });
});
