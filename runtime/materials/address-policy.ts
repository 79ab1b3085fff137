import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressClass = 'public' | 'loopback' | 'private';

/**
 * Ranges of ipaddr.js's tables that are globally routable unicast: everything else it names (RFC 1918,
 * link-local and cloud metadata, CGNAT, multicast, broadcast, documentation, benchmarking, reserved,
 * unique-local, discard, ORCHID, segment routing…) is refused.
 */
const PUBLIC_IPV4_RANGES = new Set(['unicast', 'as112', 'amt']);
const PUBLIC_IPV6_RANGES = new Set(['unicast', 'as112v6', 'amt']);

/** `::a.b.c.d` (IPv4-compatible, deprecated) — ipaddr.js has no name for it, yet it carries an IPv4. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

function classifyIpv4(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  return PUBLIC_IPV4_RANGES.has(range) ? 'public' : 'private';
}

/** The IPv4 address an IPv6 form carries verbatim in its last 32 bits (mapped, translated, compatible). */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const carries =
    range === 'ipv4Mapped' || range === 'rfc6145' || (range === 'unicast' && address.match(IPV4_COMPATIBLE));
  if (!carries) return null;
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}

function classifyIpv6(address: ipaddr.IPv6): AddressClass {
  const inner = embeddedIpv4(address);
  if (inner) return classifyIpv4(inner);
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  // 6to4, Teredo and NAT64 (rfc6052) are not in the public set: each can wrap a private IPv4.
  return PUBLIC_IPV6_RANGES.has(range) ? 'public' : 'private';
}

/** Whether an IP address is public, loopback or private/reserved (anything unparseable counts as private). */
export function classifyAddress(address: string): AddressClass {
  // node:net accepts only the standard forms; ipaddr.js alone would also read "127.1" or "0x7f.0.0.1".
  const family = isIP(address);
  if (family === 4) return classifyIpv4(ipaddr.IPv4.parse(address));
  if (family === 6) return classifyIpv6(ipaddr.IPv6.parse(address));
  return 'private';
}

/** The fetch policy: public addresses always; loopback only when a test opts in; private never. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && allowLoopback);
}
