import * as amqp from 'amqplib';
import { createTestVhost } from './broker';

jest.setTimeout(30_000);

/** Whether `check` (a passive declare) finds the entity in the vhost at `url`. */
async function exists(url: string, check: (ch: amqp.Channel) => Promise<unknown>) {
  const conn = await amqp.connect(url);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined); // a 404 closes the channel
    return await check(ch).then(
      () => true,
      () => false,
    );
  } finally {
    await conn.close().catch(() => undefined);
  }
}

describe('test vhosts', () => {
  it("when a file's vhost is handed to the next file, then none of its queues, messages or exchanges are left in it", async () => {
    const first = await createTestVhost('aict-test-pool');
    const conn = await amqp.connect(first.url);
    const ch = await conn.createChannel();
    await ch.assertExchange('pool.things', 'topic', { durable: true });
    await ch.assertQueue('pool.work', { durable: true });
    const { queue: named } = await ch.assertQueue('', { exclusive: false, durable: false });
    await ch.bindQueue('pool.work', 'pool.things', '#');
    ch.publish('pool.things', 'thing.made', Buffer.from('left behind'));
    await ch.close();
    await conn.close();
    await first.remove();

    const next = await createTestVhost('aict-test-pool');

    expect(next.name).toBe(first.name); // reused, not created
    expect(await exists(next.url, (c) => c.checkQueue('pool.work'))).toBe(false);
    expect(await exists(next.url, (c) => c.checkQueue(named))).toBe(false);
    expect(await exists(next.url, (c) => c.checkExchange('pool.things'))).toBe(false);
    await next.remove();
  });
});
