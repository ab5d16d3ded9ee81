// Build helpers shared by the four front-ends (frontends/*/rspack.config.ts).
// Node-only: never imported by browser code. Each app's config still creates its own
// ModuleFederationPlugin; this file holds what must be identical everywhere.
import path from 'node:path';
import { createRequire } from 'node:module';
import { rspack } from '@rspack/core';

const require = createRequire(import.meta.url);

const webKitDir = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const routerVersion = require('react-router-dom/package.json').version;

/**
 * Modules every app shares as singletons, so the shell and all remotes run ONE React, ONE
 * router, ONE query client and ONE session/workspace context. Deep imports are separate keys
 * (`react-dom/client` is not covered by `react-dom`). `requiredVersion` comes from each
 * app's package.json.
 *
 * 'react-router-dom' provides web-kit's src/shared/react-router-dom.ts: the declarative API
 * of React Router only (shared modules are not tree-shaken; the whole router is ~60 KB gzip).
 * Import routing from 'react-router-dom' only, never from 'react-router' (not shared: a
 * second copy, whose hooks would not see the shell's router).
 *
 * i18next and react-i18next are not keys of their own: only web-kit imports them, and web-kit
 * is a singleton, so the page still has one i18next instance (a language switch in the shell
 * reaches every remote), and web-kit's chunk carries only the parts of react-i18next it uses
 * (4 KB gzip and one request less before the first render than the two shared whole).
 *
 * '@aict/contracts/constants' (SPEC §9 values, no zod, ~1.5 KB gzip) is its own key: share
 * keys match exactly, so it is not covered by '@aict/contracts'. The shell and web-kit import
 * only this entry on their first screen; the root entry (schemas + zod) loads on demand (the
 * login form's validation) or with a remote that imports it.
 */
export const sharedSingletons = {
  react: { singleton: true },
  'react-dom': { singleton: true },
  'react-dom/client': { singleton: true },
  'react-router-dom': {
    singleton: true,
    import: path.join(webKitDir, 'src/shared/react-router-dom.ts'),
    version: routerVersion,
    requiredVersion: `^${routerVersion}`,
  },
  '@tanstack/react-query': { singleton: true },
  '@aict/web-kit': { singleton: true },
  '@aict/contracts': { singleton: true },
  '@aict/contracts/constants': { singleton: true },
};

/** Slimmer federation runtime: browser only, no manifest snapshot plugin. */
const slimRuntime = { optimization: { disableSnapshot: true, target: 'web' } };

/**
 * The federation experiments of an app. The shell provides the federation runtime's core to
 * the remotes it loads, and a production remote uses the shell's instead of carrying its own
 * copy in its remoteEntry.js (about 20 KB gzip less before the chat can render). A remote's
 * development build keeps its own, so that it can also run standalone on its dev server.
 * @param {'host' | 'remote'} role
 * @param {boolean} production
 */
export function federationExperiments(role, production) {
  if (role === 'host') return { ...slimRuntime, provideExternalRuntime: true };
  return production ? { ...slimRuntime, externalRuntime: true } : slimRuntime;
}

/** Dev-server ports of the local run (the shell proxies /remotes/<name>/ to them). */
export const devPorts = { shell: 3000, chat: 3001, generation: 3002, admin: 3003 };

/**
 * Module Federation type generation (the plugin's `dts` option), on request only:
 * `AICT_MF_TYPES=1 npm run build -w frontends/<remote>` also emits `@mf-types.zip` and
 * `@mf-types.d.ts` (the exposed modules' declarations and their `RemoteKeys`) beside
 * remoteEntry.js, for a host outside this repository or a host dev server. Off in
 * `npm run build`: it runs tsc over each exposed module's whole graph, measured at +26 s per
 * remote (chat: 4.8 s → 31 s). Inside the repository the shell loads remotes by the keys and
 * module types of shell/src/app/remote-modules.ts, checked by `tsc -p tsconfig.json`. A host
 * consumes generated types only over HTTP (the plugin downloads them), so the shell keeps
 * `dts: false`.
 * @param {'remote' | 'host'} role
 */
export function federationDts(role) {
  if (role === 'host' || !process.env.AICT_MF_TYPES) return false;
  return {
    generateTypes: {
      tsConfigPath: path.join(webKitDir, '../../tsconfig.json'),
      generateAPITypes: true,
      // tsc runs beside the bundler instead of after it
      compileInChildProcess: true,
    },
    consumeTypes: false,
  };
}

/** Where the shell finds a remote's container: same origin unless overridden at build time. */
export function remoteEntryUrl(name) {
  const override = process.env[`AICT_REMOTE_${name.toUpperCase()}_URL`];
  return override || `/remotes/${name}/remoteEntry.js`;
}

// react-router's package exports always point at its development build (dev warnings on);
// production builds use its production build instead.
function reactRouterProductionAliases() {
  const dir = path.join(
    path.dirname(require.resolve('react-router/package.json')),
    'dist/production',
  );
  return {
    'react-router$': path.join(dir, 'index.mjs'),
    'react-router/dom$': path.join(dir, 'dom-export.mjs'),
  };
}

// The federation runtime that rspack injects is imported from the CommonJS build of
// @module-federation/webpack-bundler-runtime, which defeats tree shaking (the snapshot and
// preload plugins and Node loading code stay in, even with `federationExperiments`).
// Point it at the ESM build of the same version instead (about 9 KB gzip less per app).
function federationRuntimeEsmAliases(dir) {
  const fromApp = createRequire(path.join(dir, 'package.json'));
  const runtimeTools = fromApp.resolve('@module-federation/runtime-tools');
  const fromTools = createRequire(runtimeTools);
  const bundlerCjs = fromTools.resolve('@module-federation/webpack-bundler-runtime');
  const runtimeCjs = fromTools.resolve('@module-federation/runtime');
  // The shell's plugin that hands the runtime's core to the remotes (federationExperiments).
  const fromRspackPlugin = createRequire(fromApp.resolve('@module-federation/rspack'));
  const injectCjs = fromRspackPlugin.resolve(
    '@module-federation/inject-external-runtime-core-plugin',
  );
  const esm = (file) => file.replace(/\.cjs$/, '.js');
  return {
    [bundlerCjs]: esm(bundlerCjs),
    [runtimeCjs]: esm(runtimeCjs),
    [injectCjs]: esm(injectCjs),
  };
}

/**
 * The rspack configuration common to every app.
 * @param {object} o
 * @param {string} o.dir         the app's folder (absolute)
 * @param {string} o.name        federation name: shell | chat | generation | admin
 * @param {string} o.publicPath  '/' for the shell, '/remotes/<name>/' for a remote
 * @param {boolean} o.production
 * @param {import('@rspack/core').RspackPluginInstance} o.federation the app's ModuleFederationPlugin
 * @param {object} [o.devServer] extra dev-server options
 */
/**
 * An app's build. `preload`: script URLs its index.html fetches at once, alongside its own
 * script (the shell's: the home screen's remote entry); the template places them with
 * `<%= preloadTags %>`.
 */
export function createAppConfig({
  dir,
  name,
  publicPath,
  production,
  federation,
  devServer = {},
  preload = [],
}) {
  const preloadTags = preload
    .map((url) => `<link rel="preload" as="script" href="${encodeURI(url)}" />`)
    .join('');
  const swcLoader = {
    loader: 'builtin:swc-loader',
    options: {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        target: 'es2022',
        transform: { react: { runtime: 'automatic', development: !production } },
      },
    },
  };
  const hash = production ? '.[contenthash:10]' : '';
  return {
    context: dir,
    mode: production ? 'production' : 'development',
    target: ['web', 'es2022'],
    entry: { main: './src/index.ts' },
    devtool: production ? 'source-map' : 'cheap-module-source-map', // never eval: CSP-safe in dev too
    output: {
      path: path.join(dir, 'dist'), // absolute (VERIFIED.md)
      publicPath,
      uniqueName: `aict_${name}`,
      filename: `[name]${hash}.js`,
      chunkFilename: `[name]${hash}.js`,
      cssFilename: `[name]${hash}.css`,
      cssChunkFilename: `[name]${hash}.css`,
      assetModuleFilename: `assets/[name]${hash}[ext]`,
      clean: true,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      // TypeScript (node16) wants './x.js' in dynamic imports; the file is x.ts or x.tsx
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      // workspace packages resolve to their TypeScript sources
      conditionNames: ['source', '...'],
      alias: {
        ...federationRuntimeEsmAliases(dir),
        ...(production ? reactRouterProductionAliases() : {}),
      },
    },
    module: {
      // CSS modules (*.module.css) as a default export: import styles from './x.module.css'
      parser: { 'css/auto': { namedExports: false } },
      rules: [
        { test: /\.[cm]?tsx?$/, exclude: /node_modules/, use: swcLoader, type: 'javascript/auto' },
        // CSS is emitted as files and loaded with <link> (no style injected by script: CSP-safe)
        { test: /\.css$/, type: 'css/auto' },
        { test: /\.(png|jpe?g|gif|svg|webp|woff2?)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      federation,
      new rspack.HtmlRspackPlugin({
        template: path.join(dir, 'index.html'),
        favicon: path.join(webKitDir, 'rspack/favicon.svg'),
        scriptLoading: 'defer',
        templateParameters: { preloadTags },
      }),
      new rspack.DefinePlugin({
        'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
      }),
    ],
    optimization: { moduleIds: production ? 'deterministic' : 'named' },
    performance: { hints: false },
    stats: production ? 'errors-warnings' : 'minimal',
    devServer: {
      port: devPorts[name],
      host: '127.0.0.1',
      hot: false,
      liveReload: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      historyApiFallback: { index: `${publicPath}index.html` },
      devMiddleware: { publicPath },
      ...devServer,
    },
  };
}
