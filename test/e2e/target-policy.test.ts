/**
 * The SSRF guard's policy: private-address exceptions (TRAWL_ALLOW_PRIVATE_TARGETS=<list>) and the
 * guard's own resolvers (TRAWL_DNS_SERVERS), with a real DNS server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { createHostGuard, inCidr, isBlockedAddress } from '../../core/net/host-guard.ts';
import { assertFetchable } from '../../core/net/address.ts';
import { GUARDED } from '../../core/net/target-policy.ts';
import { startDnsServer, type TestDnsServer } from '../fixtures/net/dns-server.ts';

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer({ 'public.test': ['93.184.216.34'], 'inside.test': ['127.0.0.1'], 'canary.test': ['127.0.0.2'] });
});
afterAll(() => dns.close());

describe('target policy', () => {
  test('CIDR blocks match their addresses only', () => {
    expect(inCidr('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(inCidr('127.0.0.2', '127.0.0.1/32')).toBe(false);
    expect(inCidr('10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(inCidr('11.0.0.1', '10.0.0.0/8')).toBe(false);
    expect(inCidr('fd00::5', 'fd00::/8')).toBe(true);
    expect(inCidr('fe80::1', 'fd00::/8')).toBe(false);
    expect(inCidr('10.0.0.1', 'fd00::/8')).toBe(false);
  });

  test('an exception lets one private address through and keeps the rest refused', () => {
    const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1, 10.0.0.0/24' });
    expect(targets.allowAll).toBe(false);
    expect(isBlockedAddress('127.0.0.1', targets)).toBe(false);
    expect(isBlockedAddress('10.0.0.200', targets)).toBe(false);
    expect(isBlockedAddress('127.0.0.2', targets)).toBe(true);
    expect(isBlockedAddress('10.0.1.1', targets)).toBe(true);
    expect(isBlockedAddress('8.8.8.8', targets)).toBe(false);
  });

  test('true and false keep their meaning; a bad block or server stops startup naming the variable', () => {
    expect(loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: 'true' }).targets.allowAll).toBe(true);
    expect(loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: 'false' }).targets).toMatchObject({ allowAll: false, exceptions: [] });
    expect(() => loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/40' })).toThrow(/TRAWL_ALLOW_PRIVATE_TARGETS/);
    expect(() => loadConfig({ TRAWL_DNS_SERVERS: 'dns.example:53' })).toThrow(/TRAWL_DNS_SERVERS/);
  });

  test("the guard resolves with the configured servers and judges each name's addresses", async () => {
    const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1', TRAWL_DNS_SERVERS: dns.server });
    const guard = createHostGuard(targets);
    expect(await guard.check('public.test')).toEqual({ ok: true });
    expect(await guard.check('inside.test')).toEqual({ ok: true });
    expect((await guard.check('canary.test')).ok).toBe(false);
    expect(dns.queries('canary.test')).toBeGreaterThan(0);
    await expect(assertFetchable('http://canary.test/', targets)).rejects.toMatchObject({ code: 'UNSAFE_TARGET' });
    await expect(assertFetchable('http://nowhere.test/', targets)).rejects.toMatchObject({ code: 'SCRAPE_DNS_RESOLUTION_ERROR' });
  });

  test('with no exceptions loopback stays refused', async () => {
    await expect(assertFetchable('http://127.0.0.1/', GUARDED)).rejects.toMatchObject({ code: 'UNSAFE_TARGET' });
  });
});
