import { loadRemote } from '@module-federation/enhanced/runtime';
import { RemoteBoundary } from '@aict/web-kit';
import type { RemoteKey, RemoteModules } from './remote-modules';

// Each remote is mounted as a pathless layout route (see routes.tsx); its <RemoteRoutes> then
// match the full path ('stats', 'prompts/:id', …).
//
// Remotes load through the federation runtime rather than `import('chat/App')`: the bundler
// keeps a failed `import()` of a remote module in its module cache for good, so Retry could
// never succeed; the runtime forgets a failed remoteEntry.js and fetches it again.
// A remote entry that fails to load is fetched again a few times first (remote-retry.ts, a
// runtime plugin); only then does <RemoteBoundary> show its error state.
export function loadApp<K extends RemoteKey>(key: K, load: typeof loadRemote = loadRemote) {
  return async (): Promise<RemoteModules[K]> => {
    const module = await load<RemoteModules[K]>(key);
    if (!module?.default) throw new Error(`The remote module '${key}' was not provided`);
    return module;
  };
}

const loadChat = loadApp('chat/App');
const loadGeneration = loadApp('generation/App');
const loadAdmin = loadApp('admin/App');

export function ChatRemote() {
  return <RemoteBoundary name="chat" load={loadChat} />;
}

export function GenerationRemote() {
  return <RemoteBoundary name="generation" load={loadGeneration} />;
}

export function AdminRemote() {
  return <RemoteBoundary name="admin" load={loadAdmin} />;
}
