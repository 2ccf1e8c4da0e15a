/**
 * Security defaults through the HTTP API: the SSRF guard refuses loopback/private targets (also after
 * a redirect) unless configuration allows them, and keys are required where the spec says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { isPrivateAddress } from '../../core/net/host-guard.ts';

let site: FixtureSite;
let guarded: TestTrawl;

beforeAll(async () => {
  site = serveFixtures({ '/page': '<html><body><p>secret internal page</p></body></html>' });
  guarded = await startTrawl({ TRAWL_ALLOW_PRIVATE_TARGETS: 'false' });
}, 120_000);

afterAll(async () => {
  await guarded?.stop();
  site?.stop();
}, 120_000);

describe('SSRF guard', () => {
  test('classifies addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(ip)).toBe(true);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '93.184.216.34']) {
      expect(isPrivateAddress(ip)).toBe(false);
    }
  });

  test('refuses a loopback target with 403 and says how to allow it', async () => {
    const res = await guarded.post('/v2/scrape', { url: site.url('/page') }, { authorization: `Bearer ${guarded.adminKey}` });
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
    expect(res.body.code).toBe('UNSAFE_TARGET');
    expect(res.body.error).toContain('TRAWL_ALLOW_PRIVATE_TARGETS');
    expect(site.hits).toEqual([]);
  });

  test('refuses localhost names and IPv6 loopback too', async () => {
    const port = new URL(site.origin).port;
    for (const url of [`http://localhost:${port}/page`, `http://[::1]:${port}/page`, `http://[::ffff:127.0.0.1]:${port}/page`, 'http://169.254.169.254/latest/meta-data/', `http://2130706433:${port}/page`]) {
      const res = await guarded.post('/v2/scrape', { url }, { authorization: `Bearer ${guarded.adminKey}` });
      expect(res.status).toBe(403);
    }
  });
});

describe('authentication', () => {
  test('an admin key is created on first start', () => {
    expect(guarded.adminKey).toMatch(/^fc-[0-9a-f]{32}$/);
  });

  test('an unknown key is refused with 401', async () => {
    const res = await guarded.post('/v2/scrape', { url: site.url('/page') }, { authorization: 'Bearer fc-00000000000000000000000000000000' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
  });

  test('scrape is allowed without a key (keyless), still behind the SSRF guard', async () => {
    const res = await guarded.post('/v2/scrape', { url: site.url('/page') });
    expect(res.status).toBe(403);
  });

  test('keys are stored hashed, never in plain text', async () => {
    const rows = await guarded.running.services.db.query<{ key_hash: string }>('select key_hash from api_keys');
    expect(rows.length).toBe(1);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].key_hash).not.toContain(guarded.adminKey!.slice(3));
  });
});
