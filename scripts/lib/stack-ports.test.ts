import { createServer, type Server } from 'node:net';
import { assertPortsFree } from './stack.mjs';

// A stack started while another one (e.g. of a stopped run) still holds its ports used to
// come up "ready": the old processes answered the readiness checks while the new ones died
// with EADDRINUSE, and the new gateway talked to the old services.

let held: Server;
let port: number;

beforeAll(async () => {
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  port = (held.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => held.close(resolve)));

describe('the ports of a stack', () => {
  it('when one of them is held by another process, then the start refuses and names it', async () => {
    await expect(assertPortsFree('e2e', [port])).rejects.toThrow(
      new RegExp(`port ${port} .*already in use`),
    );
  });

  it('when they are all free, then the start goes on', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const free = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));

    await expect(assertPortsFree('e2e', [free])).resolves.toBeUndefined();
  });
});
