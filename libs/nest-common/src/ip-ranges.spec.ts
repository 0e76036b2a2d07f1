import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { addressProblem, IPV4_SPECIAL_RANGES, IPV6_SPECIAL_RANGES } from './ip-ranges.js';

/** A random address inside a CIDR block: the prefix's bits kept, the rest drawn. */
function addressIn(cidr: string, draw: number[]): string {
  const [base, bits] = ipaddr.parseCIDR(cidr);
  const bytes = base.toByteArray();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    const mask = keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
    bytes[i] = (bytes[i]! & mask) | (draw[i]! & ~mask & 0xff);
  }
  return ipaddr.fromByteArray(bytes).toString();
}

const bytes16 = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 16, maxLength: 16 });

describe('addressProblem: an allow-list of global unicast', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::7f00:1', 'translation'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    // IPv4-compatible IPv6 (::/96): the library calls these unicast; they are not global.
    ['::7f00:1', 'IPv4-compatible'],
    ['::a9fe:a9fe', 'IPv4-compatible'],
    ['::0808:0808', 'IPv4-compatible'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['5f00::1', 'SRv6'],
    ['4000::1', 'not a global unicast address'],
    ['1::1', 'not a global unicast address'],
  ])('refuses %s (%s)', (address, what) => {
    expect(addressProblem(address)).toContain(what);
  });

  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8'])(
    'lets the public address %s through',
    (address) => {
      expect(addressProblem(address)).toBeUndefined();
    },
  );

  it('refuses what is not an address in its plain spelling (no hex or short IPv4 forms)', () => {
    for (const value of ['0x7f.1', '2130706433', '127.1', 'localhost', '', '1.2.3.4.5']) {
      expect(addressProblem(value)).toContain('is not an IP address');
    }
  });

  it.each(IPV4_SPECIAL_RANGES.map((r) => [r.cidr]))('refuses every address of the IPv4 special-purpose range %s', (cidr) => {
    fc.assert(
      fc.property(bytes16, (draw) => {
        const address = addressIn(cidr, draw);
        expect(addressProblem(address)).toBeDefined();
        // The same address carried in IPv6 forms is refused too.
        expect(addressProblem(`::ffff:${address}`)).toBeDefined();
        const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
        const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
        expect(addressProblem(`::${hex(a, b)}:${hex(c, d)}`)).toBeDefined();
        expect(addressProblem(`64:ff9b::${hex(a, b)}:${hex(c, d)}`)).toBeDefined();
      }),
      { numRuns: 200 },
    );
  });

  it.each(IPV6_SPECIAL_RANGES.map((r) => [r.cidr]))('refuses every address of the IPv6 special-purpose range %s', (cidr) => {
    fc.assert(
      fc.property(bytes16, (draw) => {
        const address = addressIn(cidr, draw);
        const problem = addressProblem(address);
        // ::ffff:0:0/96 is judged by the IPv4 address it carries; a public one may go through.
        if (cidr === '::ffff:0:0/96') {
          const v4 = ipaddr.process(address).toString();
          expect(problem === undefined).toBe(addressProblem(v4) === undefined);
        } else {
          expect(problem).toBeDefined();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses every IPv6 address outside 2000::/3', () => {
    fc.assert(
      fc.property(bytes16, (draw) => {
        const first = draw[0]! & 0xe0;
        fc.pre(first !== 0x20);
        const address = ipaddr.fromByteArray(draw).toString();
        fc.pre(!ipaddr.process(address).toString().includes('.') && ipaddr.process(address).kind() === 'ipv6');
        expect(addressProblem(address)).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('lets through any address outside every special-purpose range (IPv4 anywhere, IPv6 in 2000::/3)', () => {
    const v4Ranges = IPV4_SPECIAL_RANGES.map((r) => ipaddr.parseCIDR(r.cidr) as [ipaddr.IPv4, number]);
    const v6Ranges = IPV6_SPECIAL_RANGES.map((r) => ipaddr.parseCIDR(r.cidr) as [ipaddr.IPv6, number]);
    fc.assert(
      fc.property(bytes16, (draw) => {
        const v4 = ipaddr.fromByteArray(draw.slice(0, 4)) as ipaddr.IPv4;
        if (!v4Ranges.some((r) => v4.match(r))) expect(addressProblem(v4.toString())).toBeUndefined();
        const v6Bytes = [0x20 | (draw[0]! & 0x1f), ...draw.slice(1)];
        const v6 = ipaddr.fromByteArray(v6Bytes) as ipaddr.IPv6;
        if (!v6Ranges.some((r) => v6.match(r))) expect(addressProblem(v6.toString())).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });
});
