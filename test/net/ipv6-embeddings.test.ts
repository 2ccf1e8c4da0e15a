/**
 * IPv4 embedded in IPv6 (issue 15 item 14): every IPv6 form that carries a private IPv4 address is
 * private, through isPrivateAddress and through the guard on a URL (WHATWG URL normalizes a bracketed
 * `[::ffff:127.0.0.1]` to `[::ffff:7f00:1]`). The forms that are never publicly routed or hide the IPv4
 * they reach (IPv4-compatible, SIIT, local-use NAT64, Teredo) are private whatever they embed.
 */
import { describe, expect, test } from 'bun:test';
import { isPrivateAddress } from '../../core/net/host-guard.ts';
import { assertFetchable } from '../../core/net/address.ts';
import { GUARDED } from '../../core/net/target-policy.ts';

describe('IPv6 forms of IPv4', () => {
  test.each([
    '::ffff:0:7f00:1', // SIIT ::ffff:0:0/96, 127.0.0.1 (the review's bypass)
    '::ffff:0:127.0.0.1',
    '::ffff:0:a00:1', // SIIT 10.0.0.1
    '::ffff:0:808:808', // SIIT of a public address: translated, never routed to us directly
    '::ffff:127.0.0.1', // mapped
    '::ffff:a9fe:a9fe', // mapped 169.254.169.254
    '::127.0.0.1', // IPv4-compatible (deprecated)
    '::7f00:1',
    '::8.8.8.8',
    '64:ff9b::7f00:1', // well-known NAT64 of 127.0.0.1
    '64:ff9b::192.168.0.1',
    '64:ff9b:1::7f00:1', // local-use NAT64 64:ff9b:1::/48
    '64:ff9b:1:7f00:1::', // local-use NAT64, /48 layout
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo: embeds 127.0.0.1 (client XOR 0xffff)
    '2001::1',
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '2001:2::1', // benchmarking
    '2001:10::1', // ORCHID
    '2001:20::1', // ORCHIDv2
  ])('%s is private', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  test.each(['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:4860:4860::8888', '2001:200::1', '2606:4700::1111'])(
    '%s is public',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  test.each(['http://[::ffff:0:7f00:1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::127.0.0.1]/', 'http://[64:ff9b:1::a00:1]/', 'http://[2001::1]/'])(
    'the guard refuses %s',
    async (url) => {
      await expect(assertFetchable(url, GUARDED)).rejects.toMatchObject({ code: 'UNSAFE_TARGET' });
    },
  );
});
