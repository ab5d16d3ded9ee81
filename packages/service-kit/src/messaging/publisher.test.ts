import { EventEmitter } from 'node:events';
import type { ConfirmChannel } from 'amqplib';
import { ConfirmPublisher } from './publisher';
import { newStats } from './stats';

/** A confirm channel that records publishes and lets the test confirm, nack or close. */
class FakeChannel extends EventEmitter {
  sent: Array<{ routingKey: string; body: string; confirm: (err: unknown) => void }> = [];
  full = false;
  closed = false;

  publish(
    _exchange: string,
    routingKey: string,
    content: Buffer,
    _options: unknown,
    cb: (err: unknown) => void,
  ) {
    if (this.closed) {
      const err = new Error('Channel closed');
      err.name = 'IllegalOperationError';
      throw err;
    }
    this.sent.push({ routingKey, body: content.toString(), confirm: cb });
    return !this.full;
  }

  confirmAll(err: unknown = null) {
    for (const { confirm } of this.sent.splice(0)) confirm(err);
  }

  /** What amqplib does to unconfirmed messages when a channel closes. */
  close() {
    this.closed = true;
    this.confirmAll(new Error('channel closed'));
  }

  asChannel() {
    return this as unknown as ConfirmChannel;
  }
}

function publisher(overrides: { timeoutMs?: number; maxBuffered?: number } = {}) {
  const stats = newStats();
  const pub = new ConfirmPublisher({ timeoutMs: 5000, maxBuffered: 100, stats, ...overrides });
  return { pub, stats };
}

const send = (pub: ConfirmPublisher, body: string) =>
  pub.publish('ex', 'key', Buffer.from(body), {});

describe('ConfirmPublisher', () => {
  it('when there is no channel, then publishes wait and resolve once a new channel confirms them', async () => {
    const { pub, stats } = publisher();
    let settled = false;
    const pending = Promise.all([send(pub, 'a'), send(pub, 'b')]).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);

    const ch = new FakeChannel();
    pub.attach(ch.asChannel());
    expect(ch.sent.map((m) => m.body)).toEqual(['a', 'b']);
    ch.confirmAll();

    await pending;
    expect(stats.confirmed).toBe(2);
    expect(pub.pending).toBe(0);
    pub.close();
  });

  it('when the outage outlasts the timeout, then the publish fails with BUS.PUBLISH_TIMEOUT', async () => {
    const { pub, stats } = publisher({ timeoutMs: 50 });

    await expect(send(pub, 'a')).rejects.toMatchObject({
      code: 'BUS.PUBLISH_TIMEOUT',
      status: 503,
    });
    expect(stats.publishFailed).toBe(1);
    const ch = new FakeChannel();
    pub.attach(ch.asChannel());
    expect(ch.sent).toHaveLength(0); // a timed-out message is not sent later
    pub.close();
  });

  it('when the outage buffer is full, then a new publish fails at once with BUS.UNAVAILABLE', async () => {
    const { pub } = publisher({ maxBuffered: 2 });
    const waiting = [send(pub, 'a'), send(pub, 'b')];

    await expect(send(pub, 'c')).rejects.toMatchObject({ code: 'BUS.UNAVAILABLE' });
    pub.close();
    await expect(Promise.all(waiting)).rejects.toMatchObject({ code: 'BUS.CLOSED' });
  });

  it('when the channel closes before the confirms, then the messages are sent again, in order, on the next channel', async () => {
    const { pub } = publisher();
    const first = new FakeChannel();
    pub.attach(first.asChannel());
    const all = Promise.all([send(pub, 'a'), send(pub, 'b')]);

    first.close();
    pub.detach(first.asChannel());
    await new Promise((r) => setImmediate(r));
    const second = new FakeChannel();
    pub.attach(second.asChannel());
    expect(second.sent.map((m) => m.body)).toEqual(['a', 'b']);
    second.confirmAll();

    await all;
    pub.close();
  });

  it('when the broker nacks a message, then the caller gets BUS.PUBLISH_REJECTED', async () => {
    const { pub } = publisher();
    const ch = new FakeChannel();
    pub.attach(ch.asChannel());
    const result = send(pub, 'a');

    ch.confirmAll(new Error('message nacked'));

    await expect(result).rejects.toMatchObject({ code: 'BUS.PUBLISH_REJECTED' });
    pub.close();
  });

  it("when the channel's write buffer is full, then the next messages wait for 'drain'", async () => {
    const { pub } = publisher();
    const ch = new FakeChannel();
    ch.full = true;
    pub.attach(ch.asChannel());
    const all = Promise.all([send(pub, 'a'), send(pub, 'b'), send(pub, 'c')]);
    expect(ch.sent.map((m) => m.body)).toEqual(['a']);

    ch.full = false;
    ch.emit('drain');
    expect(ch.sent.map((m) => m.body)).toEqual(['a', 'b', 'c']);
    ch.confirmAll();

    await all;
    pub.close();
  });
});
