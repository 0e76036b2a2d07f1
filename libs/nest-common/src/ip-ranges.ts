import ipaddr from 'ipaddr.js';

/**
 * Which addresses the platform may connect to on a user's behalf: global unicast only, decided by an
 * allow-list. IPv6 is allowed only inside 2000::/3 (the global unicast block), IPv4 anywhere; then every
 * entry of IANA's IPv4 and IPv6 special-purpose address registries (RFC 6890 and its updates) is refused,
 * even those the registry marks globally reachable (anycast services and AS112 are never a page to fetch).
 * An address in no range of the allow-list (such as the deprecated IPv4-compatible ::/96, or any IPv6
 * outside 2000::/3) is refused as "not a global unicast address".
 */
export interface SpecialRange {
  cidr: string;
  name: string;
}

/** IANA IPv4 Special-Purpose Address Registry, plus multicast, reserved and broadcast (RFC 6890, 5771, 1112). */
export const IPV4_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"this network" (0.0.0.0/8)' },
  { cidr: '10.0.0.0/8', name: 'a private address' },
  { cidr: '100.64.0.0/10', name: 'a carrier-grade NAT address' },
  { cidr: '127.0.0.0/8', name: 'a loopback address' },
  { cidr: '169.254.0.0/16', name: 'a link-local address' },
  { cidr: '172.16.0.0/12', name: 'a private address' },
  { cidr: '192.0.0.0/24', name: 'an IETF protocol assignment' },
  { cidr: '192.0.2.0/24', name: 'a documentation address (TEST-NET-1)' },
  { cidr: '192.31.196.0/24', name: 'an AS112 address' },
  { cidr: '192.52.193.0/24', name: 'an AMT address' },
  { cidr: '192.88.99.0/24', name: 'a 6to4 relay anycast address' },
  { cidr: '192.168.0.0/16', name: 'a private address' },
  { cidr: '192.175.48.0/24', name: 'an AS112 address' },
  { cidr: '198.18.0.0/15', name: 'a benchmarking address' },
  { cidr: '198.51.100.0/24', name: 'a documentation address (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', name: 'a documentation address (TEST-NET-3)' },
  { cidr: '224.0.0.0/4', name: 'a multicast address' },
  { cidr: '240.0.0.0/4', name: 'a reserved address' },
  { cidr: '255.255.255.255/32', name: 'the broadcast address' },
];

/** IANA IPv6 Special-Purpose Address Registry, plus unique-local, link-local and multicast (RFC 4193, 4291). */
export const IPV6_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '::1/128', name: 'the loopback address' },
  { cidr: '::/128', name: 'the unspecified address' },
  { cidr: '::/96', name: 'an IPv4-compatible address (deprecated, ::/96)' },
  { cidr: '::ffff:0:0/96', name: 'an IPv4-mapped address' },
  { cidr: '64:ff9b::/96', name: 'an IPv4/IPv6 translation address (64:ff9b::/96)' },
  { cidr: '64:ff9b:1::/48', name: 'a local-use IPv4/IPv6 translation address' },
  { cidr: '100::/64', name: 'a discard-only address' },
  { cidr: '100:0:0:1::/64', name: 'a dummy IPv6 prefix' },
  { cidr: '2001::/23', name: 'an IETF protocol assignment (2001::/23)' },
  { cidr: '2001::/32', name: 'a Teredo address' },
  { cidr: '2001:db8::/32', name: 'a documentation address' },
  { cidr: '2002::/16', name: 'a 6to4 address' },
  { cidr: '2620:4f:8000::/48', name: 'an AS112 address' },
  { cidr: '3fff::/20', name: 'a documentation address' },
  { cidr: '5f00::/16', name: 'a segment routing (SRv6) address' },
  { cidr: 'fc00::/7', name: 'a unique-local address' },
  { cidr: 'fe80::/10', name: 'a link-local address' },
  { cidr: 'ff00::/8', name: 'a multicast address' },
];

type Parsed = [ipaddr.IPv4 | ipaddr.IPv6, number];
// The most specific first, so 2001::/32 is named Teredo rather than the whole 2001::/23.
const mostSpecificFirst = (ranges: readonly SpecialRange[]) =>
  ranges.map((r) => ({ ...r, range: ipaddr.parseCIDR(r.cidr) as Parsed })).sort((a, b) => b.range[1] - a.range[1]);
const parsedV4 = mostSpecificFirst(IPV4_SPECIAL_RANGES);
const parsedV6 = mostSpecificFirst(IPV6_SPECIAL_RANGES);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Why an address may not be connected to, or undefined when it is global unicast. IPv4-mapped IPv6
 * (::ffff:a.b.c.d) is judged as the IPv4 address it carries, since that is where a connection goes.
 */
export function addressProblem(address: string): string | undefined {
  if (!ipaddr.isValid(address) || (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address))) {
    return `${address} is not an IP address`;
  }
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') {
    const v4 = parsed as ipaddr.IPv4;
    const hit = parsedV4.find((r) => v4.match(r.range as [ipaddr.IPv4, number]));
    return hit ? `${v4.toString()} is ${hit.name}` : undefined;
  }
  const v6 = parsed as ipaddr.IPv6;
  const hit = parsedV6.find((r) => v6.match(r.range as [ipaddr.IPv6, number]));
  if (hit) return `${v6.toString()} is ${hit.name}`;
  if (!v6.match(GLOBAL_UNICAST_V6)) return `${v6.toString()} is not a global unicast address`;
  return undefined;
}
