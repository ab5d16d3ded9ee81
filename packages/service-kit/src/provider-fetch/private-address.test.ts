import { isPrivateAddress } from './private-address';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '2002:c0a8:0101::1',
    'not-an-ip',
  ])('when the address is %s, then it is refused', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '104.18.6.192',
    '2606:4700::6810:85e5',
    '::ffff:8.8.8.8',
  ])('when the address is %s, then it is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});
