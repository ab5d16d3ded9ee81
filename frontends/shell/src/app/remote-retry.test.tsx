import '../test/setup';
import { render, screen } from '@testing-library/react';
import {
  createInstance,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import { RemoteBoundary } from '@aict/web-kit';
import { remoteRetryPlugin } from './remote-retry';
import { loadApp } from './remotes';

// The real federation runtime loads a remote's remoteEntry.js with a <script>; a fake network
// (a createScript hook) answers each load with an error or with a working container.

let instanceCount = 0;

/** A federation runtime whose remote entry fails `failures` times, then loads. */
function federation(failures: number, retry = remoteRetryPlugin({ retries: 2, delayMs: 5 })) {
  const entry = `http://remotes.test/${++instanceCount}/chat/remoteEntry.js`;
  const requested: string[] = [];
  const fakeNetwork: ModuleFederationRuntimePlugin = {
    name: 'fake-network',
    createScript({ url }) {
      requested.push(url);
      const script = document.createElement('script');
      const fail = requested.length <= failures;
      setTimeout(() => {
        if (!fail) {
          const App = () => <h1>Chat remote</h1>;
          const container = { init: async () => {}, get: async () => () => ({ default: App }) };
          (globalThis as Record<string, unknown>).chat = container;
        }
        script.dispatchEvent(new Event(fail ? 'error' : 'load'));
      }, 1);
      return script;
    },
  };
  const instance = createInstance({
    name: `shell_${instanceCount}`,
    remotes: [{ name: 'chat', entry }],
    plugins: [retry, fakeNetwork],
  });
  const load = loadApp('chat/App', instance.loadRemote.bind(instance));
  return { load, requested };
}

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}));
afterEach(() => {
  jest.restoreAllMocks();
  delete (globalThis as Record<string, unknown>).chat; // the container a load left behind
});

test('when the remote entry fails twice and then loads, then the remote renders', async () => {
  const { load, requested } = federation(2);
  render(<RemoteBoundary name="chat" load={load} />);

  expect(await screen.findByRole('heading', { name: 'Chat remote' })).toBeTruthy();
  expect(requested).toHaveLength(3);
  expect(screen.queryByRole('alert')).toBeNull();
});

test('when every attempt fails, then the error state with Retry is shown', async () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  const { load, requested } = federation(Infinity);
  render(<RemoteBoundary name="chat" load={load} />);

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('This part of the app could not be loaded');
  expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  // the first load and two retries
  expect(requested).toHaveLength(3);
});

test('when the retries wait, then each waits twice as long as the one before', async () => {
  const waits: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  jest.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    if (ms && ms >= 100) waits.push(ms);
    return realSetTimeout(fn, ms && ms >= 100 ? 0 : ms);
  }) as typeof setTimeout);
  const { load } = federation(Infinity, remoteRetryPlugin({ retries: 3, delayMs: 100 }));

  await expect(load()).rejects.toThrow(/remoteEntry\.js/);
  expect(waits.filter((ms) => ms < 20_000)).toEqual([100, 200, 400]);
});
