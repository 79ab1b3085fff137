import { isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private';

function ipv4Parts(address: string): number[] | null {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((part) => Number.isInteger(part) && part >= 0 && part <= 255) ? parts : null;
}

function classifyIpv4(address: string): AddressClass {
  const parts = ipv4Parts(address);
  if (!parts) return 'private';
  const [a, b] = parts as [number, number, number, number];
  if (a === 127) return 'loopback';
  if (a === 0 || a === 10) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  if (a === 169 && b === 254) return 'private'; // link-local, cloud metadata
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 192 && b === 0 && parts[2] === 0) return 'private';
  if (a === 198 && (b === 18 || b === 19)) return 'private';
  if (a >= 224) return 'private'; // multicast and reserved
  return 'public';
}

function expandIpv6(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const parts = ipv4Parts(v4[1]!);
    if (!parts) return null;
    text =
      text.slice(0, -v4[1]!.length) +
      `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined && missing !== 0) return null;
  const groups = [...headGroups, ...Array(Math.max(0, missing)).fill('0'), ...tailGroups].map((group) =>
    parseInt(group, 16),
  );
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

function classifyIpv6(address: string): AddressClass {
  const groups = expandIpv6(address);
  if (!groups) return 'private';
  const first = groups[0]!;
  if (groups.every((group, index) => group === (index === 7 ? 1 : 0))) return 'loopback';
  if (groups.every((group) => group === 0)) return 'private';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and IPv4-compatible: judge the IPv4 inside.
  const embedsIpv4 =
    groups.slice(0, 4).every((group) => group === 0) &&
    ((groups[4] === 0 && (groups[5] === 0xffff || groups[5] === 0)) || (groups[4] === 0xffff && groups[5] === 0));
  if (embedsIpv4) {
    const v4 = `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
    return classifyIpv4(v4);
  }
  if ((first & 0xfe00) === 0xfc00) return 'private'; // unique local
  if ((first & 0xffc0) === 0xfe80) return 'private'; // link-local
  if ((first & 0xff00) === 0xff00) return 'private'; // multicast
  if (first === 0x2002 || first === 0x64) return 'private'; // 6to4 and NAT64 can wrap private IPv4
  if (first === 0x2001 && groups[1] === 0) return 'private'; // Teredo wraps an (obfuscated) IPv4
  if ((first & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  return 'public';
}

/** Whether an IP address is public, loopback or private/reserved (anything unparseable counts as private). */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 4) return classifyIpv4(address);
  if (family === 6) return classifyIpv6(address);
  return 'private';
}

/** The fetch policy: public addresses always; loopback only when a test opts in; private never. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && allowLoopback);
}
