import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { CONTEXT_HEADER } from '@aict/contracts';
import {
  dropTestDatabase,
  serviceTestEnv,
  signTestContext,
  waitFor,
  type Caller,
} from '@aict/service-kit/testing';

// The real prompt service (its built dist/), started on a test file's vhost: the routes that
// ask it (`prompt.count`, `prompt.for-results`) meet its real rules. Without a build of it
// the test says so and fails.
const PROMPT_MAIN = join(__dirname, '../../../prompt/dist/main.js');

export interface PromptService {
  url: string;
  /** Calls the prompt service's HTTP API as the gateway would, for `as`. */
  call(method: string, path: string, as: Caller, body?: unknown): Promise<Response>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPromptService(vhostUrl: string): Promise<PromptService> {
  if (!existsSync(PROMPT_MAIN))
    throw new Error('build the prompt service first: npm run build -w @aict/prompt-service');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = serviceTestEnv('prompt', { AMQP_URL: vhostUrl, PORT: String(port) });
  const child = spawn(process.execPath, [PROMPT_MAIN], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  await waitFor(
    async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok === true,
    'the prompt service',
  );
  return {
    url,
    call: (method, path, as, body) =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(as ? { [CONTEXT_HEADER]: signTestContext(as) } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await dropTestDatabase(env.MONGO_URL);
    },
  };
}
