/**
 * Proxies through real `tinyproxy` (HTTP, basic auth) and `microsocks` (SOCKS5 with a password)
 * started by the test (issue 3 "Done when"): the site sees the request come through the proxy
 * (tinyproxy's Via header; microsocks connects from 127.0.0.2), with the fetch engine and with the
 * browser, `enhanced` reports `proxyUsed: "stealth"`, `location.country` picks the country's proxy,
 * and `auto` moves to the enhanced proxy when the first route is blocked or fails (a basic proxy on a
 * closed port), while `basic` alone fails.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startSite, type Site } from './site.ts';
import { startOn, type TestTrawl } from './helpers.ts';
import { looksBlocked } from '../../core/pipeline/proxy.ts';
import { startMicrosocks, startTinyproxy, VIA_NAME, type RunningProxy } from './proxies.ts';


setDefaultTimeout(60_000);
let site: Site;
let http: RunningProxy;
let socks: RunningProxy;
/** Basic = tinyproxy, enhanced = microsocks, DE = microsocks. */
let a: TestTrawl;
/** Basic = a closed port, enhanced = tinyproxy. */
let b: TestTrawl;
/** An HTTPS site with a self-signed certificate, reporting the peer address. */
let tls: ReturnType<typeof Bun.serve>;
let certDir: string;

beforeAll(async () => {
  site = startSite();
  certDir = mkdtempSync(join(tmpdir(), 'trawl-cert-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  tls = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { cert: readFileSync(join(certDir, 'cert.pem'), 'utf8'), key: readFileSync(join(certDir, 'key.pem'), 'utf8') },
    fetch: (req, srv) =>
      new Response(`<html><body><h1>Secure page</h1><p>TLS visitor from ${srv.requestIP(req)?.address}; via ${req.headers.get('via') ?? 'none'}.</p></body></html>`, {
        headers: { 'content-type': 'text/html' },
      }),
  });
  [http, socks] = await Promise.all([startTinyproxy(), startMicrosocks()]);
  a = await startOn({ TRAWL_PROXY_BASIC: http.url, TRAWL_PROXY_ENHANCED: socks.url, TRAWL_PROXY_COUNTRIES: `DE=${socks.url}` });
  b = await startOn({ TRAWL_PROXY_BASIC: `http://127.0.0.1:${freePort()}`, TRAWL_PROXY_ENHANCED: http.url });
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await http?.stop();
  await socks?.stop();
  site?.stop();
  tls?.stop(true);
  rmSync(certDir, { recursive: true, force: true });
}, 60_000);

/** What the echo page's server side saw. */
function seen(res: { body: any }): { via: string | null; peer: string; ua: string } {
  const md = res.body.data?.markdown ?? '';
  return JSON.parse(/\{"ua"[\s\S]*?"peer":"[^"]*"\}/.exec(md)?.[0] ?? 'null');
}

const fresh = { maxAge: 0, onlyMainContent: false };

describe('an HTTP proxy with basic auth (tinyproxy)', () => {
  test('the fetch engine goes through it', async () => {
    const res = await a.post('/v2/scrape', { url: site.url('/echo?f1'), proxy: 'basic', ...fresh });
    expect(res.status).toBe(200);
    expect(seen(res).via).toContain(VIA_NAME);
    expect(res.body.data.metadata.proxyUsed).toBe('basic');
  });

  test('the browser goes through it, subresources included', async () => {
    const before = site.hits.length;
    const res = await a.post('/v2/scrape', { url: site.url('/js?b1'), proxy: 'basic', mobile: true, ...fresh });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Rendered in the browser');
    const hits = site.hits.slice(before);
    expect(hits.map((h) => h.path)).toEqual(expect.arrayContaining(['/js?b1', '/api/story']));
    for (const h of hits) expect(h.headers.via ?? '').toContain(VIA_NAME);
  });

  test('auto uses the basic route first', async () => {
    const res = await a.post('/v2/scrape', { url: site.url('/echo?auto-basic'), ...fresh });
    expect(seen(res).via).toContain(VIA_NAME);
    expect(res.body.data.metadata.proxyUsed).toBe('basic');
  });
});

describe('a SOCKS5 proxy with a password (microsocks)', () => {
  test('enhanced goes through it in the browser and reports stealth', async () => {
    const res = await a.post('/v2/scrape', { url: site.url('/echo?e1'), proxy: 'enhanced', ...fresh });
    expect(res.status).toBe(200);
    const s = seen(res);
    expect(s.peer).toMatch(/127\.0\.0\.2$/);
    expect(s.via).toBeNull();
    expect(res.body.data.metadata.proxyUsed).toBe('stealth');
    expect(res.body.data.markdown).toContain('"tz"'); // the client-side part ran: it was the browser
  });

  test('location.country picks the country proxy, also for the fetch engine', async () => {
    const res = await a.post('/v2/scrape', { url: site.url('/echo?de'), proxy: 'basic', location: { country: 'DE' }, ...fresh });
    expect(res.status).toBe(200);
    expect(seen(res).peer).toMatch(/127\.0\.0\.2$/);
    expect(res.body.data.metadata.proxyUsed).toBe('basic');
    const fr = await a.post('/v2/scrape', { url: site.url('/echo?fr'), proxy: 'basic', location: { country: 'FR' }, ...fresh });
    expect(seen(fr).via).toContain(VIA_NAME);
  });

  test('auto: a blocked answer on the basic route is retried on the enhanced route', async () => {
    const res = await a.post('/v2/scrape', { url: site.url('/guarded'), ...fresh });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.statusCode).toBe(200);
    expect(res.body.data.markdown).toContain('Welcome, visitor from');
    expect(res.body.data.metadata.proxyUsed).toBe('stealth');
    const basic = await a.post('/v2/scrape', { url: site.url('/guarded'), proxy: 'basic', ...fresh });
    expect(basic.status).toBe(200);
    expect(basic.body.data.metadata.statusCode).toBe(403);
    expect(basic.body.data.markdown).toContain('Access denied');
  });
});

describe('HTTPS through the proxies (CONNECT tunnels)', () => {
  const url = () => `https://127.0.0.1:${tls.port}/secure`;

  test('fetch engine through the SOCKS5 proxy (country route)', async () => {
    const res = await a.post('/v2/scrape', { url: url(), proxy: 'basic', location: { country: 'DE' }, ...fresh });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toMatch(/TLS visitor from (::ffff:)?127\.0\.0\.2/);
  });

  test('browser through the SOCKS5 proxy', async () => {
    const res = await a.post('/v2/scrape', { url: url(), proxy: 'enhanced', ...fresh });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toMatch(/TLS visitor from (::ffff:)?127\.0\.0\.2/);
  });

  test('fetch engine and browser through the HTTP proxy', async () => {
    for (const extra of [{}, { mobile: true }]) {
      const res = await a.post('/v2/scrape', { url: url(), proxy: 'basic', ...extra, ...fresh });
      expect(res.status).toBe(200);
      expect(res.body.data.markdown).toContain('Secure page');
    }
  });
});

describe('auto falls back when the first route fails', () => {
  test('fetch engine: the closed basic proxy fails, the enhanced proxy answers', async () => {
    const res = await b.post('/v2/scrape', { url: site.url('/echo?fb1'), ...fresh });
    expect(res.status).toBe(200);
    expect(seen(res).via).toContain(VIA_NAME);
    expect(res.body.data.metadata.proxyUsed).toBe('stealth');
  });

  test('browser: the same fallback', async () => {
    const res = await b.post('/v2/scrape', { url: site.url('/echo?fb2'), formats: ['markdown', 'screenshot'], ...fresh });
    expect(res.status).toBe(200);
    expect(seen(res).via).toContain(VIA_NAME);
    expect(res.body.data.metadata.proxyUsed).toBe('stealth');
  });

  test('basic alone fails clearly and never goes direct', async () => {
    const before = site.count('/echo?fb3');
    const res = await b.post('/v2/scrape', { url: site.url('/echo?fb3'), proxy: 'basic', ...fresh });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.success).toBe(false);
    expect(site.count('/echo?fb3')).toBe(before);
  });
});

describe('block detection', () => {
  const answer = (statusCode: number, text: string) =>
    ({ url: 'http://127.0.0.1:9/', statusCode, headers: {}, contentType: 'text/html', body: new Uint8Array(), text, engine: 'fetch' }) as const;

  test('short challenge pages are blocks, whatever tags sit between the words; ordinary pages are not', () => {
    expect(looksBlocked(answer(403, 'anything'))).toBe(true);
    expect(looksBlocked(answer(200, '<html><title>Just a moment...</title><body>Checking your browser</body></html>'))).toBe(true);
    expect(looksBlocked(answer(200, '<p><b>Access</b>\n  <i>denied</i></p>'))).toBe(true);
    expect(looksBlocked(answer(200, '<script>var captcha = 1</script><p>Please verify you are a human.</p>'))).toBe(true);
    expect(looksBlocked(answer(503, '<div id="cf-chl-widget"></div>'))).toBe(true);
    expect(looksBlocked(answer(200, '<h1>Humans and robots</h1><p>An essay on automation.</p>'))).toBe(false);
    expect(looksBlocked(answer(200, '<h1>Manual</h1><p>Chapter 1. Getting started.</p>'))).toBe(false);
    expect(looksBlocked(answer(200, `<p>${'Access denied '.repeat(10)}</p>${'<p>long article text</p>'.repeat(200)}`))).toBe(false);
  });
});
