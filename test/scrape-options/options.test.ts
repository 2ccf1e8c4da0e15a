/**
 * Scrape options and actions through the HTTP API with real Chromium (issue 3 "Done when"): a page
 * rendered by JavaScript, a form with buttons, an infinite-scroll page, a cookie banner, a late page
 * (waitFor), a slow page (timeout), a page that crashes the tab, mobile, location, headers, and the
 * shapes of `data.actions` and of screenshot/PDF URLs served from /v2/blobs.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { download, pngSize, siteAndTrawl } from './helpers.ts';


setDefaultTimeout(60_000);
const env = siteAndTrawl();

const scrape = (body: Record<string, unknown>) => env.trawl.post('/v2/scrape', body);

describe('pages that need a browser', () => {
  test('a page rendered by JavaScript is rendered before capture', async () => {
    const res = await scrape({ url: env.site.url('/js') });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('# Rendered in the browser');
    expect(res.body.data.markdown).toContain('fetched and drawn by JavaScript');
  });

  test('a form with a button: click, write, press, wait, scrape, executeJavascript, screenshot and pdf actions', async () => {
    const res = await scrape({
      url: env.site.url('/form'),
      formats: ['markdown'],
      actions: [
        { type: 'click', selector: '#name' },
        { type: 'write', text: 'Ada' },
        { type: 'click', selector: '#go' },
        { type: 'wait', selector: '#out' },
        { type: 'click', selector: '.inc', all: true },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'document.getElementById("count").textContent' },
        { type: 'screenshot', fullPage: true },
        { type: 'executeJavascript', script: 'return { n: 2 * 21 }' },
        { type: 'pdf', format: 'A4', landscape: true },
        { type: 'wait', milliseconds: 50 },
      ],
    });
    expect(res.status).toBe(200);
    const { data } = res.body;
    expect(data.markdown).toContain('Hello, Ada!');
    expect(Object.keys(data.actions).sort()).toEqual(['javascriptReturns', 'pdfs', 'scrapes', 'screenshots']);
    expect(data.actions.scrapes).toHaveLength(1);
    expect(data.actions.scrapes[0].url).toBe(env.site.url('/form'));
    expect(data.actions.scrapes[0].html).toContain('Hello, Ada!');
    expect(data.actions.javascriptReturns).toEqual([{ type: 'string', value: '2' }, { type: 'object', value: { n: 42 } }]);
    expect(data.actions.screenshots).toHaveLength(1);
    expect(data.actions.pdfs).toHaveLength(1);
    const shot = await download(data.actions.screenshots[0]);
    expect(shot.status).toBe(200);
    expect(shot.type).toBe('image/png');
    expect(pngSize(shot.bytes).width).toBe(1920);
    const pdf = await download(data.actions.pdfs[0]);
    expect(pdf.type).toBe('application/pdf');
    expect(new TextDecoder().decode(pdf.bytes.subarray(0, 5))).toBe('%PDF-');
    // Actions make the scrape sensitive: never cached.
    expect(data.metadata.cacheState).toBe('miss');
  });

  test('a failing action is a clear error naming its index and type', async () => {
    const res = await scrape({ url: env.site.url('/form'), actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#missing' }] });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('SCRAPE_ACTION_ERROR');
    expect(res.body.error).toContain('Action 1 (click)');
    expect(res.body.error).toContain('#missing');
  });

  test('invalid actions are refused with 400 before anything runs', async () => {
    const both = await scrape({ url: env.site.url('/form'), actions: [{ type: 'wait', milliseconds: 10, selector: 'p' }] });
    expect(both.status).toBe(400);
    const none = await scrape({ url: env.site.url('/form'), actions: [{ type: 'click' }] });
    expect(none.status).toBe(400);
  });

  test('an infinite-scroll page loads more entries with scroll actions', async () => {
    const plain = await scrape({ url: env.site.url('/scroll'), formats: ['markdown'], waitFor: 200 });
    const scrolled = await scrape({
      url: env.site.url('/scroll'),
      actions: [{ type: 'scroll' }, { type: 'wait', milliseconds: 300 }, { type: 'scroll' }, { type: 'wait', milliseconds: 300 }, { type: 'scroll' }, { type: 'wait', milliseconds: 300 }],
    });
    const count = (md: string) => (md.match(/List entry number \d+/g) ?? []).length;
    expect(count(plain.body.data.markdown)).toBeGreaterThanOrEqual(4);
    expect(count(scrolled.body.data.markdown)).toBeGreaterThan(count(plain.body.data.markdown));
  });

  test('a cookie banner is removed with blockAds (default) and kept without; clicking it works as an action', async () => {
    const blocked = await scrape({ url: env.site.url('/banner'), formats: ['markdown'], onlyMainContent: false, mobile: true });
    expect(blocked.body.data.markdown).toContain('Spring tides');
    expect(blocked.body.data.markdown).not.toContain('We use cookies');
    const kept = await scrape({ url: env.site.url('/banner'), formats: ['markdown'], onlyMainContent: false, mobile: true, blockAds: false });
    expect(kept.body.data.markdown).toContain('We use cookies');
    const accepted = await scrape({
      url: env.site.url('/banner'),
      blockAds: false,
      onlyMainContent: false,
      actions: [{ type: 'click', selector: '#accept' }, { type: 'executeJavascript', script: 'document.cookie' }],
    });
    expect(accepted.body.data.actions.javascriptReturns[0].value).toBe('consent=yes');
    expect(accepted.body.data.markdown).not.toContain('We use cookies');
  });
});

describe('timing', () => {
  test('waitFor waits on top of the smart wait', async () => {
    const quick = await scrape({ url: env.site.url('/late'), mobile: true });
    expect(quick.body.data.markdown).toContain('Loading...');
    const waited = await scrape({ url: env.site.url('/late'), waitFor: 2500 });
    expect(waited.status).toBe(200);
    expect(waited.body.data.markdown).toContain('The late paragraph arrived after a timer.');
  });

  test('a page slower than the timeout answers 408 SCRAPE_TIMEOUT on time (fetch and browser)', async () => {
    for (const extra of [{}, { mobile: true }]) {
      const started = Date.now();
      const res = await scrape({ url: env.site.url('/slow?ms=60000'), timeout: 2000, ...extra });
      expect(res.status).toBe(408);
      expect(res.body.code).toBe('SCRAPE_TIMEOUT');
      // Far below the page's 60 s: the timeout cut it (a bound that catches a hang, not a speed check).
      expect(Date.now() - started).toBeLessThan(40_000);
    }
  });

  test('timeout outside 1000..300000 ms is a 400', async () => {
    expect((await scrape({ url: env.site.url('/article'), timeout: 999 })).status).toBe(400);
    expect((await scrape({ url: env.site.url('/article'), timeout: 300_001 })).status).toBe(400);
  });

  test('a page that crashes the tab fails at once with SCRAPE_SITE_ERROR; the next scrape works', async () => {
    const started = Date.now();
    const res = await scrape({ url: env.site.url('/crash'), timeout: 120_000, waitFor: 60_000 });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('SCRAPE_SITE_ERROR');
    expect(res.body.error).toContain('crashed');
    // Below the 60 s wait: the crash ended the scrape before its wait did.
    expect(Date.now() - started).toBeLessThan(55_000);
    const next = await scrape({ url: env.site.url('/js') });
    expect(next.status).toBe(200);
    expect(next.body.data.markdown).toContain('Rendered in the browser');
  }, 60_000);
});

describe('device, location, headers', () => {
  const echo = (md: string) => {
    const server = JSON.parse(/\{"ua"[^\n]*?\}(?=\s*\n|\s*$|\s*```)/.exec(md)?.[0] ?? 'null');
    const client = JSON.parse(/\{"width"[^\n]*?\}/.exec(md)?.[0] ?? 'null');
    return { server, client };
  };

  test('mobile emulates a phone', async () => {
    const res = await scrape({ url: env.site.url('/echo'), mobile: true, onlyMainContent: false });
    const { server, client } = echo(res.body.data.markdown);
    expect(client.width).toBe(412);
    expect(client.touch).toBeGreaterThan(0);
    expect(server.ua).toContain('Mobile');
    const desktop = echo((await scrape({ url: env.site.url('/echo'), waitFor: 10, onlyMainContent: false })).body.data.markdown);
    expect(desktop.client.width).toBe(1920);
  });

  test('location: languages as Accept-Language and in the browser, the country time zone', async () => {
    const res = await scrape({ url: env.site.url('/echo'), location: { country: 'de', languages: ['de-DE', 'en'] }, waitFor: 10, onlyMainContent: false });
    const { server, client } = echo(res.body.data.markdown);
    expect(server.al).toMatch(/^de-DE/);
    expect(client.language).toBe('de-DE');
    expect(client.tz).toBe('Europe/Berlin');
    const plain = await scrape({ url: env.site.url('/echo'), location: { languages: ['fr-FR'] }, onlyMainContent: false });
    expect(echo(plain.body.data.markdown).server.al).toMatch(/^fr-FR/);
    const bad = await scrape({ url: env.site.url('/echo'), location: { country: 'Germany' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('location.country');
  });

  test('headers reach the site and keep the scrape out of the cache', async () => {
    const res = await scrape({ url: env.site.url('/echo'), headers: { 'X-Fixture': 'hello' }, onlyMainContent: false });
    expect(echo(res.body.data.markdown).server.x).toBe('hello');
    const browser = await scrape({ url: env.site.url('/echo'), headers: { 'X-Fixture': 'browser' }, mobile: true, onlyMainContent: false });
    expect(echo(browser.body.data.markdown).server.x).toBe('browser');
  });
});

describe('TLS', () => {
  test('skipTlsVerification: a self-signed certificate is accepted by default and refused with false', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    const tls = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      tls: { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') },
      fetch: () => new Response('<html><body><h1>Secure harbour</h1><p>Behind a self-signed certificate.</p></body></html>', { headers: { 'content-type': 'text/html' } }),
    });
    try {
      const url = `https://127.0.0.1:${tls.port}/`;
      for (const extra of [{}, { mobile: true }]) {
        const ok = await scrape({ url, maxAge: 0, ...extra });
        expect(ok.status).toBe(200);
        expect(ok.body.data.markdown).toContain('Secure harbour');
        const strict = await scrape({ url, maxAge: 0, skipTlsVerification: false, ...extra });
        expect(strict.status).toBe(500);
        expect(strict.body.code).toBe('SCRAPE_SSL_ERROR');
      }
    } finally {
      tls.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('screenshot format', () => {
  test('viewport screenshot, full page, custom viewport and JPEG quality, served from /v2/blobs', async () => {
    const res = await scrape({ url: env.site.url('/scroll'), formats: ['markdown', { type: 'screenshot', fullPage: true }] });
    expect(res.status).toBe(200);
    expect(res.body.data.screenshot).toStartWith(`${env.trawl.base}/v2/blobs/`);
    const full = await download(res.body.data.screenshot);
    expect(full.type).toBe('image/png');
    expect(pngSize(full.bytes).height).toBeGreaterThan(1080);
    const small = await scrape({ url: env.site.url('/article'), formats: [{ type: 'screenshot', viewport: { width: 800, height: 600 } }] });
    expect(Object.keys(small.body.data).sort()).toEqual(['metadata', 'screenshot']);
    expect(pngSize((await download(small.body.data.screenshot)).bytes)).toEqual({ width: 800, height: 600 });
    const jpeg = await scrape({ url: env.site.url('/article'), formats: [{ type: 'screenshot', quality: 40 }] });
    const j = await download(jpeg.body.data.screenshot);
    expect(j.type).toBe('image/jpeg');
    expect([j.bytes[0], j.bytes[1]]).toEqual([0xff, 0xd8]);
    expect((await download(`${env.trawl.base}/v2/blobs/ffffffffffffffffffffffffffffffff.png`)).status).toBe(404);
  });
});
