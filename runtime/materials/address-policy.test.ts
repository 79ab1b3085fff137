import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedAddress } from './address-policy.ts';

describe('classifyAddress', () => {
  it.each([
    // Public unicast, both families.
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['172.32.0.1', 'public'],
    ['192.0.1.255', 'public'],
    ['223.255.255.255', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    // Loopback 127.0.0.0/8 and ::1, also wrapped in IPv6.
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    // "This network" 0.0.0.0/8 and the unspecified IPv6 address.
    ['0.0.0.0', 'private'],
    ['0.1.2.3', 'private'],
    ['::', 'private'],
    // RFC 1918.
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    // Link-local (cloud metadata lives here) and carrier-grade NAT.
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    // IETF protocol assignments, 6to4 relay anycast, benchmarking.
    ['192.0.0.8', 'private'],
    ['192.88.99.1', 'private'],
    ['198.18.0.1', 'private'],
    ['198.19.255.255', 'private'],
    // Documentation ranges (RFC 5737, RFC 3849).
    ['192.0.2.1', 'private'],
    ['198.51.100.7', 'private'],
    ['203.0.113.200', 'private'],
    ['2001:db8::1', 'private'],
    ['2001:db8:ffff::1', 'private'],
    // Multicast, reserved 240.0.0.0/4 and broadcast.
    ['224.0.0.1', 'private'],
    ['239.255.255.250', 'private'],
    ['240.0.0.1', 'private'],
    ['255.255.255.255', 'private'],
    ['ff02::1', 'private'],
    ['ff0e::1', 'private'],
    // IPv6 local scopes.
    ['fe80::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['fd00::1', 'private'],
    ['fc00::1', 'private'],
    ['fec0::1', 'private'],
    // Private IPv4 wrapped in IPv6: mapped, translated (RFC 6145), compatible.
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'private'],
    ['::ffff:192.0.2.1', 'private'],
    ['::ffff:0:a00:1', 'private'],
    ['::a00:1', 'private'],
    // Forms that can wrap any IPv4: NAT64 (RFC 6052), 6to4, Teredo.
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'private'],
    ['2002:a00:1::', 'private'],
    ['2002:808:808::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'private'],
    // Other special IPv6 blocks: discard, benchmarking, ORCHIDv2, reserved 3fff::/20.
    ['100::1', 'private'],
    ['2001:2::1', 'private'],
    ['2001:20::1', 'private'],
    ['3fff::1', 'private'],
    // Not an address, or a non-standard spelling a resolver would never return.
    ['not-an-ip', 'private'],
    ['127.1', 'private'],
    ['0x7f.0.0.1', 'private'],
    ['', 'private'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('allows loopback only when asked, private never', () => {
    expect(isAllowedAddress('127.0.0.1', false)).toBe(false);
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false);
    expect(isAllowedAddress('203.0.113.5', true)).toBe(false);
    expect(isAllowedAddress('8.8.8.8', false)).toBe(true);
  });
});
