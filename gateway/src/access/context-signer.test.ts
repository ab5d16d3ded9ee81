import { verifyContext } from '@aict/service-kit';
import { TEST_CONTEXT_KEYS } from '@aict/service-kit/testing';
import type { TrustedContext } from '@aict/contracts';
import { ContextSigner } from './context-signer';

const context: TrustedContext = {
  uid: 'u1',
  sa: false,
  roles: { '1': 'user' },
  ws: 1,
  role: 'user',
  rid: 'r1',
  ip: '10.0.0.1',
};

describe('ContextSigner', () => {
  it('when the same caller comes again within 30 s, then the signed context is reused; after, it is signed again', () => {
    const signer = new ContextSigner(TEST_CONTEXT_KEYS.privateKey);
    const build = jest.fn(() => context);
    const t0 = Date.now();

    const first = signer.sign('k', build, t0);
    const again = signer.sign('k', build, t0 + 29_000);
    const later = signer.sign('k', build, t0 + 30_001);

    expect(again).toBe(first);
    expect(build).toHaveBeenCalledTimes(2);
    expect(verifyContext(TEST_CONTEXT_KEYS.publicKey, later)).toEqual(context);
  });

  it('when the key differs, then another context is signed', () => {
    const signer = new ContextSigner(TEST_CONTEXT_KEYS.privateKey);

    const a = signer.sign('a', () => context);
    const b = signer.sign('b', () => ({ ...context, ws: null, role: null }));

    expect(verifyContext(TEST_CONTEXT_KEYS.publicKey, b)).toMatchObject({ ws: null });
    expect(a).not.toBe(b);
  });

  it('when a context would be reused longer than it lives, then the signer refuses the settings', () => {
    expect(
      () =>
        new ContextSigner(TEST_CONTEXT_KEYS.privateKey, { reuseMs: 60_000, lifetimeSeconds: 60 }),
    ).toThrow();
  });
});
