import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

// A federation runtime plugin (registered in rspack.config.ts under `runtimePlugins`) that
// loads a remote's remoteEntry.js again when it fails to load (network error, 5xx, timeout):
// a few times, with a doubling delay. When every attempt fails, the original error goes on to
// the shell's <RemoteBoundary>, which shows its error state and its own Retry button.
//
// A remote entry that loads but throws while running is not retried (the runtime does not
// hand such errors to `loadEntryError`): loading the same file again would throw again.

export interface RemoteRetryOptions {
  /** Attempts after the first failure. */
  retries?: number;
  /** Delay before the first retry, in ms; each later retry waits twice as long. */
  delayMs?: number;
}

export const REMOTE_RETRY_DEFAULTS = { retries: 3, delayMs: 500 } as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type LoadEntryError = NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>;

export function remoteRetryPlugin(options: RemoteRetryOptions = {}): ModuleFederationRuntimePlugin {
  const retries = options.retries ?? REMOTE_RETRY_DEFAULTS.retries;
  const delayMs = options.delayMs ?? REMOTE_RETRY_DEFAULTS.delayMs;

  async function retryEntry({
    getRemoteEntry,
    origin,
    remoteInfo,
    globalLoading,
    uniqueKey,
  }: Parameters<LoadEntryError>[0]) {
    for (let attempt = 1; attempt <= retries; attempt++) {
      await sleep(delayMs * 2 ** (attempt - 1));
      // The failed load is still registered under this key: without this, getRemoteEntry
      // would answer with the same rejected promise instead of fetching the file again.
      delete globalLoading[uniqueKey];
      try {
        const entry = await getRemoteEntry({ origin, remoteInfo, remoteEntryExports: undefined });
        if (entry) return entry;
      } catch (error) {
        console.warn(
          `The remote '${remoteInfo.name}' failed to load (retry ${attempt} of ${retries})`,
          error,
        );
      }
    }
    // Nothing recovered: the runtime throws the original error.
    return undefined;
  }

  return {
    name: 'aict-remote-retry',
    // The hook's declared result is a promise of a promise; the runtime awaits it once.
    loadEntryError: ((args) => retryEntry(args)) as LoadEntryError,
  };
}

// `runtimePlugins` entries are modules whose default export makes the plugin.
export default remoteRetryPlugin;
