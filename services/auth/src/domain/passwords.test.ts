import { burnTime, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('when a password is hashed, then scrypt N=2^15 r=8 p=1 with its own salt is stored', async () => {
    const [a, b] = await Promise.all([hashPassword('secret'), hashPassword('secret')]);

    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(a).not.toBe(b);
  });

  it('when the right password is given, then it verifies; a wrong one does not', async () => {
    const stored = await hashPassword('correct horse');

    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
  });

  it('when the stored hash is malformed, then nothing verifies against it', async () => {
    expect(await verifyPassword('x', 'plain-text-password')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$99999999$8$1$AAAA$AAAA')).toBe(false);
    expect(await burnTime('x')).toBe(false);
  });
});
