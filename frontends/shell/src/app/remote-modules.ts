import type { RemoteModule } from '@aict/web-kit';

/**
 * The modules the shell loads from its remotes, keyed as the federation runtime names them
 * (`<remote>/<expose>`: each remote's rspack.config.ts `exposes`), with the type each must
 * have: the same shape as the `RemoteKeys`/`PackageType` that Module Federation's type
 * generation writes (see federationDts in @aict/web-kit/rspack). A key the remotes do not
 * expose, or a module used as something else, fails `tsc`. The shell never imports a remote's
 * source (dependency-cruiser: no-remote-to-remote-imports); each remote renders its App with
 * no props in its own bootstrap.tsx, which `tsc` checks against the same contract.
 */
export interface RemoteModules {
  'chat/App': RemoteModule;
  'generation/App': RemoteModule;
  'admin/App': RemoteModule;
}

export type RemoteKey = keyof RemoteModules;
