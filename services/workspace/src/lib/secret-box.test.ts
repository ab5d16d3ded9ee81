import { randomBytes } from 'node:crypto';
import { createSecretBox, SecretBoxError } from './secret-box';

const key = () => randomBytes(32);

describe('SecretBox', () => {
  it('when a value is sealed and opened with the same address, then it comes back', () => {
    const box = createSecretBox({ current: { id: 'k1', key: key() } });

    const sealed = box.seal('sk-secret-value', '7:openai_api_key');

    expect(sealed).toMatch(/^k1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(sealed).not.toContain('secret');
    expect(box.open(sealed, '7:openai_api_key')).toBe('sk-secret-value');
  });

  it('when it is opened for another address, then it is refused', () => {
    const box = createSecretBox({ current: { id: 'k1', key: key() } });
    const sealed = box.seal('sk-secret-value', '7:openai_api_key');

    expect(() => box.open(sealed, '8:openai_api_key')).toThrow(SecretBoxError);
  });

  it('when a byte of the ciphertext is changed, then it is refused', () => {
    const box = createSecretBox({ current: { id: 'k1', key: key() } });
    const [id, iv, tag, data] = box.seal('sk-secret-value', 'a').split(':') as [
      string,
      string,
      string,
      string,
    ];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0]! ^= 1;

    expect(() => box.open([id, iv, tag, flipped.toString('base64url')].join(':'), 'a')).toThrow(
      SecretBoxError,
    );
  });

  it('when the key was rotated, then values sealed with the previous key still open', () => {
    const old = { id: 'k1', key: key() };
    const before = createSecretBox({ current: old }).seal('sk-old', 'global:openai_api_key');
    const rotated = createSecretBox({ current: { id: 'k2', key: key() }, previous: [old] });

    expect(rotated.open(before, 'global:openai_api_key')).toBe('sk-old');
    expect(rotated.seal('sk-new', 'x').startsWith('k2:')).toBe(true);
  });

  it('when the key id is unknown, then it is refused with a clear message', () => {
    const sealed = createSecretBox({ current: { id: 'k9', key: key() } }).seal('v', 'a');

    expect(() => createSecretBox({ current: { id: 'k1', key: key() } }).open(sealed, 'a')).toThrow(
      'no decryption key with id k9',
    );
  });
});
