import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import {
  createAppConfig,
  devPorts,
  federationDts,
  federationExperiments,
  remoteEntryUrl,
  sharedSingletons,
} from '@aict/web-kit/rspack';

const remoteNames = ['chat', 'generation', 'admin'] as const;

export default (_env: unknown, argv: { mode?: string }) => {
  const production = (argv.mode ?? process.env.NODE_ENV) === 'production';
  return createAppConfig({
    // The app's folder (native ESM under Node 24: no __dirname).
    dir: fileURLToPath(new URL('.', import.meta.url)),
    name: 'shell',
    publicPath: '/',
    production,
    // The home screen is the chat: its remote entry is fetched alongside the shell's own
    // script instead of after it (one sequential round trip fewer before the message box).
    preload: [remoteEntryUrl('chat')],
    federation: new ModuleFederationPlugin({
      name: 'shell',
      // `<name>@<url>`: same origin in production (the gateway serves /remotes/<name>/);
      // AICT_REMOTE_<NAME>_URL overrides one at build time.
      remotes: Object.fromEntries(
        remoteNames.map((name) => [name, `${name}@${remoteEntryUrl(name)}`]),
      ),
      shared: sharedSingletons,
      // A remote that is down must not blank the shell (VERIFIED.md).
      shareStrategy: 'loaded-first',
      // Types of the remote modules: src/app/remote-modules.ts, checked by tsc (see federationDts).
      dts: federationDts('host'),
      // Retries a remote entry that fails to load before <RemoteBoundary> shows its error.
      runtimePlugins: [fileURLToPath(new URL('./src/app/remote-retry.ts', import.meta.url))],
      manifest: false,
      experiments: federationExperiments('host', production),
    }),
    devServer: {
      // Same URLs as behind the gateway: remotes from their own dev servers, the API from
      // the gateway of the local run.
      proxy: [
        ...remoteNames.map((name) => ({
          context: [`/remotes/${name}`],
          target: `http://127.0.0.1:${devPorts[name]}`,
        })),
        { context: ['/api'], target: process.env.AICT_API_URL ?? 'http://127.0.0.1:8080' },
      ],
    },
  });
};
