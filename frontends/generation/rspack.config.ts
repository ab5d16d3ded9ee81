import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import {
  createAppConfig,
  federationDts,
  federationExperiments,
  sharedSingletons,
} from '@aict/web-kit/rspack';

export default (_env: unknown, argv: { mode?: string }) => {
  const production = (argv.mode ?? process.env.NODE_ENV) === 'production';
  return createAppConfig({
    // The app's folder (native ESM under Node 24: no __dirname).
    dir: fileURLToPath(new URL('.', import.meta.url)),
    name: 'generation',
    // The gateway serves this build under /remotes/generation/.
    publicPath: '/remotes/generation/',
    production,
    federation: new ModuleFederationPlugin({
      name: 'generation',
      filename: 'remoteEntry.js',
      exposes: { './App': './src/app/App.tsx' },
      shared: sharedSingletons,
      // Federated types (@mf-types.zip) with AICT_MF_TYPES=1 only: see federationDts.
      dts: federationDts('remote'),
      manifest: false,
      experiments: federationExperiments('remote', production),
    }),
    devServer: {
      // Standalone development: the API comes from the gateway of the local run.
      proxy: [{ context: ['/api'], target: process.env.AICT_API_URL ?? 'http://127.0.0.1:8080' }],
    },
  });
};
