/**
 * DNS rebinding in the fetch engine and webhook delivery (issue 15 item 5): the connection goes to the
 * address the guard checked, never to a second resolution. A DNS server of the test answers
 * `rebind.test` with 127.0.0.1 (allowed by the exception) first and 127.0.0.2 (the canary) after; and
 * `localhost`, which the system resolver maps to 127.0.0.1 (not an exception in that case), is
 * answered 127.0.0.3 (the exception) by the guard's server, so a fetch that resolves again lands on
 * 127.0.0.1, an address the policy refuses.
 * Also: a webhook receiver streaming an endless answer is cut off after a few KB (item 7).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { newId } from '../../core/ids.ts';
import fetchEngine from '../../plugins/engine/fetch.ts';
import { SCRAPE_DEFAULTS } from '../../core/pipeline/scrape-options.ts';
import { dispatchJob } from '../../core/webhooks/deliver.ts';
import { recordEvent } from '../../core/webhooks/outbox.ts';
import { resolveWebhook } from '../../core/webhooks/spec.ts';
import { UNGUARDED, type TargetPolicy } from '../../core/net/target-policy.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { startDnsServer, type TestDnsServer } from '../fixtures/net/dns-server.ts';
import type { ScrapeOptions } from '../../core/http/models/scrape.ts';
import { pinnedFetch } from '../../core/net/pinned-fetch.ts';
import { execFileSync } from 'node:child_process';
import { startTinyproxy, VIA_NAME } from '../scrape-options/proxies.ts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let dns: TestDnsServer;
let t: TestDatabase;
const hits = { site: 0, canary: 0, third: 0 };
const servers: { stop(force?: boolean): void }[] = [];
let port = 0;

/** Serves `name` on `host:port` (port 0: a free one), counting requests. */
function serve(host: string, p: number, name: keyof typeof hits) {
  const s = Bun.serve({
    hostname: host,
    port: p,
    async fetch(req) {
      hits[name]++;
      await req.text();
      return new Response(`<html><body><h1>${name}</h1></body></html>`, { headers: { 'content-type': 'text/html' } });
    },
  });
  servers.push(s);
  return s.port!;
}

beforeAll(async () => {
  port = serve('127.0.0.1', 0, 'site');
  serve('127.0.0.3', port, 'third');
  serve('127.0.0.2', port, 'canary');
  dns = await startDnsServer();
  t = await openTestDatabase('pglite');
});
afterAll(async () => {
  for (const s of servers) s.stop(true);
  await dns.close();
  await t.close();
});

/** `rebind.test` answers 127.0.0.1 to the next A query and 127.0.0.2 to every later one. */
function rebinding() {
  const first = dns.queries('rebind.test') + 1;
  dns.set('rebind.test', (n) => (n === first ? ['127.0.0.1'] : ['127.0.0.2']));
}

const ctxOf = (targets: TargetPolicy) => {
  const config = { ...loadConfig({}), targets };
  return { config, log: silentLogger, signal: new AbortController().signal, deadline: Date.now() + 30_000, blobs: undefined as never };
};
const scrape = (url: string, targets: TargetPolicy) =>
  fetchEngine.fetch({ url, headers: {}, options: { ...SCRAPE_DEFAULTS, formats: [] } as unknown as ScrapeOptions, timeoutMs: 20_000, targets }, ctxOf(targets));

describe('the fetch engine connects to the checked address', () => {
  test('a name that rebinds to the canary after the check: the site answers, the canary sees nothing', async () => {
    const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1', TRAWL_DNS_SERVERS: dns.server });
    const before = { ...hits };
    for (let i = 0; i < 3; i++) {
      rebinding();
      const res = await scrape(`http://rebind.test:${port}/page?${i}`, targets).catch((e) => e);
      // a second check would see 127.0.0.2 and refuse; the first is the only one per hop
      expect(res.statusCode).toBe(200);
      expect(res.text).toContain('<h1>site</h1>');
      expect(res.url).toBe(`http://rebind.test:${port}/page?${i}`);
    }
    expect(hits.canary).toBe(before.canary);
  });

  test('a name the system resolves elsewhere: the checked address wins over the runtime resolver', async () => {
    const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.3', TRAWL_DNS_SERVERS: dns.server });
    dns.set('localhost', ['127.0.0.3']);
    const refused = hits.site;
    const res = await scrape(`http://localhost:${port}/`, targets);
    expect(res.text).toContain('<h1>third</h1>');
    expect(hits.site).toBe(refused);
  });

  test('through a proxy the guard still checks the name and the proxy connects (it resolves then)', async () => {
    const proxy = await startTinyproxy();
    let via = null as string | null;
    const echo = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => ((via = req.headers.get('via')), new Response('<p>via</p>', { headers: { 'content-type': 'text/html' } })) });
    try {
      const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1', TRAWL_DNS_SERVERS: dns.server });
      const request = { url: `http://127.0.0.1:${echo.port}/`, headers: {}, options: { ...SCRAPE_DEFAULTS, formats: [] } as unknown as ScrapeOptions, timeoutMs: 20_000, targets, proxy: { name: 'basic', url: proxy.url, tier: 'basic' as const } };
      const res = await fetchEngine.fetch(request, ctxOf(targets));
      expect(res.text).toContain('via');
      expect(via).toContain(VIA_NAME);
      dns.set('inside.test', ['127.0.0.2']);
      const refused = await fetchEngine.fetch({ ...request, url: `http://inside.test:${echo.port}/` }, ctxOf(targets)).catch((e) => e);
      expect(refused.code).toBe('UNSAFE_TARGET');
    } finally {
      echo.stop(true);
      await proxy.stop();
    }
  });

  test('a refusal names the host but not its address', async () => {
    dns.set('inside.test', ['127.0.0.2']);
    const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1', TRAWL_DNS_SERVERS: dns.server });
    const e = await scrape(`http://inside.test:${port}/`, targets).catch((e) => e);
    expect(e.code).toBe('UNSAFE_TARGET');
    expect(e.message).toContain('inside.test resolves to a private address');
    expect(e.message).not.toContain('127.0.0.2');
  });
});

test('over TLS the pinned connection sends and verifies the name (SNI, certificate), not the address', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-pin-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=rebind.test', '-addext', 'subjectAltName=DNS:rebind.test'], { stdio: 'ignore' });
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  const secure = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: { cert, key: readFileSync(join(dir, 'key.pem'), 'utf8') }, fetch: (req) => new Response(`host ${req.headers.get('host')}`) });
  servers.push(secure);
  const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1', TRAWL_DNS_SERVERS: dns.server });
  dns.set('rebind.test', ['127.0.0.1']);
  const res = await pinnedFetch(`https://rebind.test:${secure.port}/`, { tls: { ca: cert } }, targets);
  expect(await res.text()).toBe(`host rebind.test:${secure.port}`);
  // A certificate the runtime does not trust: the error names the URL as given, not the address.
  const e = await pinnedFetch(`https://rebind.test:${secure.port}/`, {}, targets).catch((e) => e);
  expect(e).toBeInstanceOf(Error);
  expect(String(e.message)).not.toContain('127.0.0.1');
});

describe('webhook delivery', () => {
  const deliver = async (url: string, targets: TargetPolicy) => {
    const jobId = newId();
    await t.db.transaction((tx) => recordEvent(tx, resolveWebhook({ url }), { type: 'crawl.started', jobId, teamId: 't', success: true }));
    await dispatchJob({ db: t.db, log: silentLogger, targets, secretFor: async () => undefined }, jobId);
    const [row] = await t.db.query<{ status: string; last_error: string | null }>('select status, last_error from webhook_deliveries where job_id = $1', [jobId]);
    return row!;
  };

  test('a receiver name that rebinds after the check: delivered to the checked address, the canary sees nothing', async () => {
    const { targets } = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1', TRAWL_DNS_SERVERS: dns.server });
    rebinding();
    dns.set('localhost', ['127.0.0.3']);
    const before = { ...hits };
    expect(await deliver(`http://rebind.test:${port}/hook`, { ...targets, exceptions: ['127.0.0.1'] })).toMatchObject({ status: 'delivered' });
    expect(hits).toEqual({ ...before, site: before.site + 1 });
    expect(await deliver(`http://localhost:${port}/hook`, { ...targets, exceptions: ['127.0.0.3'] })).toMatchObject({ status: 'delivered' });
    expect(hits).toEqual({ ...before, site: before.site + 1, third: before.third + 1 });
  });

  test('an endless answer is cut off after a few KB and the delivery completes', async () => {
    let sent = 0;
    let cancelled = false;
    const chunk = new Uint8Array(16 * 1024).fill(120);
    const endless = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () =>
        new Response(
          new ReadableStream({
            async pull(c) {
              sent += chunk.byteLength;
              c.enqueue(chunk);
              await Bun.sleep(1);
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
    });
    servers.push(endless);
    const row = await deliver(`http://127.0.0.1:${endless.port}/hook`, UNGUARDED);
    expect(row).toMatchObject({ status: 'delivered', last_error: null });
    // With the whole answer read, delivery would time out after 10 s with ~hundreds of MB sent.
    for (let i = 0; i < 50 && !cancelled; i++) await Bun.sleep(100);
    const settled = sent;
    await Bun.sleep(300);
    expect(sent).toBe(settled);
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  });
});
