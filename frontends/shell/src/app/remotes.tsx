import { loadRemote } from '@module-federation/enhanced/runtime';
import { RemoteBoundary, type RemoteModule } from '@aict/web-kit';

// Each remote is mounted as a pathless layout route (see routes.tsx); its <RemoteRoutes> then
// match the full path ('stats', 'prompts/:id', …).
//
// Remotes load through the federation runtime rather than `import('chat/App')`: the bundler
// keeps a failed `import()` of a remote module in its module cache for good, so Retry could
// never succeed; the runtime forgets a failed remoteEntry.js and fetches it again.
function loadApp(name: string) {
  return async (): Promise<RemoteModule> => {
    const module = await loadRemote<RemoteModule>(`${name}/App`);
    if (!module?.default) throw new Error(`The remote '${name}' did not provide ./App`);
    return module;
  };
}

const loadChat = loadApp('chat');
const loadGeneration = loadApp('generation');
const loadAdmin = loadApp('admin');

export function ChatRemote() {
  return <RemoteBoundary name="chat" load={loadChat} />;
}

export function GenerationRemote() {
  return <RemoteBoundary name="generation" load={loadGeneration} />;
}

export function AdminRemote() {
  return <RemoteBoundary name="admin" load={loadAdmin} />;
}
