import { BlockList, isIP } from 'node:net';

/**
 * Addresses a provider base URL entered in the product must not reach (server-side request
 * forgery): loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade
 * NAT, unspecified, multicast, reserved and documentation ranges, and their IPv6 forms.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped, -compatible, NAT64 or 6to4 IPv6 address. */
function embeddedIpv4(ipv6: string): string | null {
  const lower = ipv6.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] ?? null;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1] ?? '0', 16);
    const lo = parseInt(hex[2] ?? '0', 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const hi = parseInt(sixToFour[1] ?? '0', 16);
    const lo = parseInt(sixToFour[2] ?? '0', 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return null;
}

/** True for an address a product-entered provider URL must not reach (also for non-IPs). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  return true;
}
