/**
 * End to end: POST /v2/scrape through the real HTTP app, queue, worker and embedded database against
 * a fixture site on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';

const ARTICLE = `<!doctype html><html lang="en"><head>
<meta charset="utf-8"><title>Tide tables of the North Sea</title>
<meta name="description" content="How tides work along the coast.">
<meta property="og:title" content="Tide tables (OG)"><meta property="og:image" content="/img/tide.png">
<meta name="keywords" content="tides, sea"><meta name="author" content="A. Writer">
<link rel="icon" href="/favicon.ico"></head>
<body><header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav></header>
<main><article><h1>Tide tables of the North Sea</h1>
<p>The tide rises twice a day along the coast of the North Sea, driven by the moon and the sun. Fishermen read tide tables before they leave the harbour.</p>
<p>Spring tides come at new and full moon; neap tides come between them. See <a href="/moon">the moon page</a> for details.</p>
<table><tr><th>Port</th><th>High water</th></tr><tr><td>Den Helder</td><td>06:12</td></tr><tr><td>Harlingen</td><td>07:40</td></tr></table>
</article></main>
<footer><p>Copyright 2026 Coastal Notes. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>`;

let site: FixtureSite;
let trawl: TestTrawl;

beforeAll(async () => {
  site = serveFixtures({
    '/article': ARTICLE,
    '/redirect': () => new Response(null, { status: 302, headers: { location: '/article' } }),
    '/gzip': () =>
      new Response(new Uint8Array(gzipSync(Buffer.from(ARTICLE))), { headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' } }),
    '/latin1': () =>
      new Response(new Uint8Array(iconv.encode('<html><head><title>Caf\u00e9</title></head><body><p>Cr\u00e8me br\u00fbl\u00e9e \u00e0 la carte, na\u00efve fa\u00e7ade.</p></body></html>', 'latin1')), {
        headers: { 'content-type': 'text/html; charset=iso-8859-1' },
      }),
    '/meta-charset': () =>
      new Response(new Uint8Array(iconv.encode('<html><head><meta charset="windows-1252"><title>Quotes</title></head><body><p>\u201cSmart quotes\u201d \u2013 and a \u20ac sign.</p></body></html>', 'win1252')), {
        headers: { 'content-type': 'text/html' },
      }),
    '/slow': async () => {
      await Bun.sleep(4000);
      return new Response('<p>late</p>', { headers: { 'content-type': 'text/html' } });
    },
    '/huge': () => new Response('<p>' + 'x'.repeat(3 * 1024 * 1024) + '</p>', { headers: { 'content-type': 'text/html' } }),
    '/endless': () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.enqueue(new TextEncoder().encode('<p>' + 'more '.repeat(20000) + '</p>'));
          },
        }),
        { headers: { 'content-type': 'text/html' } },
      ),
    '/plain.txt': { body: 'Just some text.\nSecond line.', headers: { 'content-type': 'text/plain; charset=utf-8' } },
  });
  trawl = await startTrawl({ TRAWL_AUTH: 'off', TRAWL_MAX_FETCH_BYTES: String(2 * 1024 * 1024) });
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 120_000);

describe('POST /v2/scrape', () => {
  test('returns clean markdown and metadata by default', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article') });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['markdown', 'metadata']);
    expect(data.markdown).toContain('# Tide tables of the North Sea');
    expect(data.markdown).toContain('The tide rises twice a day');
    expect(data.markdown).toMatch(/\| Port \| High water \|/);
    expect(data.markdown).toContain(`[the moon page](${site.url('/moon')})`);
    expect(data.markdown).not.toContain('All rights reserved');
    expect(data.markdown).not.toContain('[Contact]');
    const m = data.metadata;
    expect(m.title).toBe('Tide tables of the North Sea');
    expect(m.description).toBe('How tides work along the coast.');
    expect(m.language).toBe('en');
    expect(m.ogTitle).toBe('Tide tables (OG)');
    expect(m.keywords).toBe('tides, sea');
    expect(m.author).toBe('A. Writer');
    expect(m.sourceURL).toBe(site.url('/article'));
    expect(m.url).toBe(site.url('/article'));
    expect(m.statusCode).toBe(200);
    expect(m.contentType).toContain('text/html');
    expect(m.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('html, rawHtml and links formats', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article'), formats: ['html', 'rawHtml', 'links', 'markdown'], onlyMainContent: false });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.rawHtml).toBe(ARTICLE);
    expect(d.html).not.toContain('<meta');
    expect(d.html).toContain('Copyright 2026'); // onlyMainContent false keeps the footer
    expect(d.links).toEqual(expect.arrayContaining([site.url('/about'), site.url('/moon'), site.url('/privacy')]));
    expect(d.links.every((l: string) => l.startsWith('http'))).toBe(true);
  });

  test('includeTags and excludeTags', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article'), formats: ['markdown'], includeTags: ['table'], onlyMainContent: false });
    expect(res.body.data.markdown).toContain('Den Helder');
    expect(res.body.data.markdown).not.toContain('tide rises');
    const ex = await trawl.post('/v2/scrape', { url: site.url('/article'), excludeTags: ['table'] });
    expect(ex.body.data.markdown).not.toContain('Den Helder');
    expect(ex.body.data.markdown).toContain('tide rises');
  });

  test('a 404 target is still a successful scrape', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/missing') });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.statusCode).toBe(404);
    expect(res.body.data.markdown).toContain('No such page');
  });

  test('follows redirects; sourceURL stays as sent, url is final', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/redirect') });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.sourceURL).toBe(site.url('/redirect'));
    expect(res.body.data.metadata.url).toBe(site.url('/article'));
  });

  test('decodes gzip and legacy charsets', async () => {
    const gz = await trawl.post('/v2/scrape', { url: site.url('/gzip') });
    expect(gz.body.data.markdown).toContain('The tide rises twice a day');
    const latin = await trawl.post('/v2/scrape', { url: site.url('/latin1') });
    expect(latin.body.data.markdown).toContain('Cr\u00e8me br\u00fbl\u00e9e \u00e0 la carte, na\u00efve fa\u00e7ade.');
    expect(latin.body.data.metadata.title).toBe('Caf\u00e9');
    const meta = await trawl.post('/v2/scrape', { url: site.url('/meta-charset') });
    expect(meta.body.data.markdown).toContain('\u201cSmart quotes\u201d \u2013 and a \u20ac sign.');
  });

  test('plain text files', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/plain.txt') });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Just some text.');
  });

  test('a URL without scheme gets http://', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article').replace('http://', '') });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.url).toBe(site.url('/article'));
  });

  test('times out with 408 SCRAPE_TIMEOUT', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/slow'), timeout: 1500 });
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect(res.body.error).toContain('1500 ms');
  });

  test('refuses bodies over the size cap with a clear error', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/huge') });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('SCRAPE_CONTENT_TOO_LARGE');
    expect(res.body.error).toContain('TRAWL_MAX_FETCH_BYTES');
  });

  test('an endless body is cut at the cap and the server keeps serving', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/endless'), timeout: 20000 });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('SCRAPE_CONTENT_TOO_LARGE');
    expect((await trawl.post('/v2/scrape', { url: site.url('/article') })).status).toBe(200);
  });

  test('a request body over 10 MB is refused with 413', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article'), headers: { x: 'y'.repeat(11 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
    expect((await trawl.get('/health')).status).toBe(200);
  });

  test('GET /v2/scrape/{id} returns the same bytes', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article'), formats: ['markdown', 'links'] });
    const id = res.body.data.metadata.scrapeId;
    const again = await trawl.get(`/v2/scrape/${id}`);
    expect(again.status).toBe(200);
    expect(again.text).toBe(res.text);
    expect((await trawl.get('/v2/scrape/not-a-uuid')).status).toBe(404);
    expect((await trawl.get('/v2/scrape/0190f5a0-0000-7000-8000-000000000000')).body).toEqual({ success: false, error: 'Job not found' });
  });
});

describe('validation', () => {
  test('unknown fields such as origin and integration are accepted', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article'), origin: 'js-sdk@4.42.0', integration: 'cli', somethingNew: { a: 1 } });
    expect(res.status).toBe(200);
  });

  const bad: [string, unknown, RegExp][] = [
    ['missing url', {}, /url/],
    ['url not a string', { url: 42 }, /url/],
    ['unknown format', { url: 'http://127.0.0.1/', formats: ['pdfx'] }, /format/i],
    ['timeout too small', { url: 'http://127.0.0.1/', timeout: 10 }, /timeout/],
    ['waitFor over half of timeout', { url: 'http://127.0.0.1/', timeout: 2000, waitFor: 1500 }, /waitFor must not exceed half of timeout/],
    ['bad country', { url: 'http://127.0.0.1/', location: { country: 'USA' } }, /country/],
    ['wait action with both fields', { url: 'http://127.0.0.1/', actions: [{ type: 'wait', milliseconds: 5, selector: 'a' }] }, /wait|milliseconds|selector|actions/i],
    ['ftp scheme', { url: 'ftp://127.0.0.1/file' }, /scheme/],
    ['invalid CSS selector in includeTags', { url: 'http://127.0.0.1/', includeTags: ['div[['] }, /includeTags: invalid CSS selector/],
    ['json as bare string', { url: 'http://127.0.0.1/', formats: ['json'] }, /format/i],
  ];
  for (const [name, body, message] of bad) {
    test(`400 for ${name}`, async () => {
      const res = await trawl.post('/v2/scrape', body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(res.body.error).toMatch(message);
    });
  }

  test('400 BAD_REQUEST_INVALID_JSON for a non-JSON body', async () => {
    const res = await trawl.post('/v2/scrape', '{"url": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST_INVALID_JSON');
  });

  test('lowercase country is accepted (upper-cased first)', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/article'), location: { country: 'de' } });
    expect(res.status).toBe(200);
  });
});

describe('service endpoints', () => {
  test('/health and /ready', async () => {
    expect((await trawl.get('/health')).body).toEqual({ status: 'ok' });
    const ready = await trawl.get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', database: true, queue: true, databaseDriver: 'pglite', queueDriver: 'memory' });
  });

  test('/docs serves Swagger UI from local assets and /docs/json the OpenAPI document', async () => {
    const page = await fetch(trawl.base + '/docs');
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(html).not.toMatch(/unpkg|jsdelivr|cdn\./);
    const js = await fetch(trawl.base + '/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const spec = await trawl.get('/docs/json');
    expect(spec.body.openapi).toMatch(/^3\./);
    const op = spec.body.paths['/v2/scrape'].post;
    expect(op.requestBody).toBeDefined();
    expect(JSON.stringify(op.requestBody)).toContain('onlyMainContent');
  });
});
