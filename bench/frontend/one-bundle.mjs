// The same app as the federated front-ends, built as ONE bundle: the shell's rspack settings
// (web-kit's createAppConfig, production) without Module Federation, its loadRemote()
// replaced by direct imports of the remotes' ./App modules (one-bundle-runtime.mjs).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../../infra/lib/paths.mjs';

const requireFromWebKit = createRequire(join(ROOT, 'packages/web-kit/package.json'));

export async function buildOneBundle(outDir) {
  const { createAppConfig } = await import(join(ROOT, 'packages/web-kit/rspack/index.mjs'));
  const { rspack } = requireFromWebKit('@rspack/core');
  const config = createAppConfig({
    dir: join(ROOT, 'frontends/shell'),
    name: 'onebundle',
    publicPath: '/',
    production: true,
    federation: { apply() {} },
  });
  config.output.path = outDir;
  config.resolve.alias['@module-federation/enhanced/runtime$'] = join(
    ROOT,
    'bench/frontend/one-bundle-runtime.mjs',
  );
  await new Promise((resolve, reject) => {
    rspack(config, (err, stats) => {
      if (err) return reject(err);
      if (stats.hasErrors())
        return reject(new Error(stats.toString({ all: false, errors: true }).slice(0, 3000)));
      resolve(stats);
    });
  });
}
