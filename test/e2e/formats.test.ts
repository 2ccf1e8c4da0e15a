/**
 * The formats of issue 16 end to end on a real Trawl (Postgres, in-process queue, Chromium for
 * branding): the SDK `firecrawl@4.42.0` requests images, attributes, branding, rawBase64 and audio
 * unchanged against fixture pages on 127.0.0.1 (media made by ffmpeg here); a key restricted to
 * markdown gets 403 naming each new format; credits are as the plugins declare; bad input gets 4xx or
 * a warning and the server keeps serving; signed media links refuse expired and altered signatures.
 * A format that only this test registers (test/fixtures/formats/word-count.ts) works for scrape,
 * crawl scrapeOptions, key restrictions and credits with no other file touched.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Firecrawl from 'firecrawl';
import { BUILTIN_PLUGINS, Registry } from '../../core/registry.ts';
import { signBlobUrl } from '../../core/blob-signing.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { makeMedia } from '../fixtures/media/make.ts';

setDefaultTimeout(120_000);

const NEW_FORMATS = ['images', 'attributes', 'branding', 'rawBase64', 'audio', 'video', 'wordCount'];
const registry = new Registry({ ...BUILTIN_PLUGINS, format: { ...BUILTIN_PLUGINS.format, wordCount: () => import('../fixtures/formats/word-count.ts') } });
const media = makeMedia(2);
let trawl: AccountsTrawl;
let site: FixtureSite;
let fc: Firecrawl;
let team: string;
let key: string;
let mdOnly: string;

const PAGE = `<html><head><title>Harbour</title><meta property="og:image" content="/og.png"><link rel="icon" href="/favicon.ico"></head>
<body><main><h1>Harbour news</h1><p>The harbour opens at dawn and closes at dusk every day of the week.</p>
<img src="/boat.jpg" srcset="/boat-400.jpg 400w, /boat-1600.jpg 1600w"><img src="data:image/png;base64,AAAA">
<ul><li class="berth" data-id="b1">One</li><li class="berth" data-id="b2">Two</li></ul><a href="/next">next</a></main></body></html>`;

beforeAll(async () => {
  site = serveFixtures({
    '/': '<html><body><main><p>Harbour site index with two pages.</p><a href="/page">page</a> <a href="/next">next</a></main></body></html>',
    '/page': PAGE,
    '/next': '<html><body><main><p>The second page of the harbour site.</p></main></body></html>',
    '/brand': readFileSync(join(import.meta.dir, '../fixtures/branding/light.html'), 'utf8'),
    '/episode': `<html><body><h1>Episode 1</h1><audio controls><source src="/tone.wav" type="audio/wav"></audio></body></html>`,
    '/tone.wav': { body: media.wav, headers: { 'content-type': 'audio/wav' } },
  });
  trawl = await startAccountsTrawl({}, registry);
  const k = await trawl.key({ credits: 10_000 });
  key = k.key;
  team = k.team;
  mdOnly = (await trawl.key({ formats: ['markdown'] })).key;
  fc = new Firecrawl({ apiKey: key, apiUrl: trawl.base });
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
  rmSync(media.dir, { recursive: true, force: true });
});

describe('the SDK requests the new formats unchanged', () => {
  test('images alone, and with markdown and links', async () => {
    const alone = await fc.scrape(site.url('/page'), { formats: ['images'] });
    expect(alone.images).toEqual([site.url('/og.png'), site.url('/favicon.ico'), site.url('/boat.jpg'), site.url('/boat-1600.jpg')]);
    expect(alone.markdown).toBeUndefined();
    const mixed = await fc.scrape(site.url('/page'), { formats: ['markdown', 'links', 'images'] });
    expect(mixed.markdown).toContain('Harbour news');
    expect(mixed.links).toEqual([site.url('/next')]);
    expect(mixed.images).toHaveLength(4);
  });

  test('attributes', async () => {
    const doc = await fc.scrape(site.url('/page'), { formats: [{ type: 'attributes', selectors: [{ selector: 'li.berth', attribute: 'data-id' }, { selector: 'table', attribute: 'id' }] }] });
    expect(doc.attributes).toEqual([
      { selector: 'li.berth', attribute: 'data-id', values: ['b1', 'b2'] },
      { selector: 'table', attribute: 'id', values: [] },
    ]);
  });

  test('branding (Chromium)', async () => {
    const doc = await fc.scrape(site.url('/brand'), { formats: ['branding'] });
    expect(doc.branding).toMatchObject({ colorScheme: 'light', colors: { primary: '#ff5a1f', background: '#ffffff', link: '#0a66c2' }, typography: { fontFamilies: { primary: 'Inter' } } });
  });

  test('rawBase64', async () => {
    const doc = await fc.scrape(site.url('/page'), { formats: ['rawBase64' as never] });
    expect(Buffer.from((doc as { rawBase64?: string }).rawBase64!, 'base64').toString('utf8')).toBe(PAGE);
  });

  test('audio: a signed link to an MP3 that expires; expired, altered and unsigned links are refused', async () => {
    const doc = await fc.scrape(site.url('/episode'), { formats: ['audio'] });
    const url = new URL(doc.audio!);
    expect(url.pathname).toMatch(/^\/v2\/blobs\/[0-9a-f]{32}\.mp3$/);
    const expires = Number(url.searchParams.get('expires')) * 1000;
    expect(expires).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60 * 60_000 + 1000);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = new Uint8Array(await ok.arrayBuffer());
    expect(bytes[0] === 0x49 || bytes[0] === 0xff).toBe(true); // ID3 tag or an MPEG frame
    const keyName = url.pathname.split('/').pop()!;
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const altered = await fetch(tampered);
    expect(altered.status).toBe(403);
    expect((await altered.json()).error).toContain('not valid');
    const plain = `${trawl.base}/v2/blobs/${keyName}`;
    const expired = await fetch(signBlobUrl(plain, keyName, trawl.running.services.config.blobSecret, 1000, Date.now() - 2 * 3600_000));
    expect(expired.status).toBe(403);
    expect((await expired.json()).error).toContain('expired');
    expect((await fetch(plain)).status).toBe(403);
  });
});

describe('bad input: 4xx or a warning, never a 500', () => {
  test('an unknown format is a 400 naming it and the supported ones', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['markdown', 'podcast'] }, trawl.auth(key));
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('Unknown format "podcast"');
    for (const f of ['markdown', 'images', 'attributes', 'branding', 'rawBase64', 'audio', 'video']) expect(res.body.error).toContain(f);
    const obj = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: [{ type: 'podcast', length: 3 }] }, trawl.auth(key));
    expect(obj.status).toBe(400);
    expect(obj.body.error).toContain('"podcast"');
  });

  test('rawBase64 with another format, an invalid selector', async () => {
    const both = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['rawBase64', 'markdown'] }, trawl.auth(key));
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('"rawBase64" must be the only format');
    const sel = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: [{ type: 'attributes', selectors: [{ selector: 'li[[', attribute: 'id' }] }] }, trawl.auth(key));
    expect(sel.status).toBe(400);
    expect(sel.body.error).toContain('li[[');
  });

  test('audio on a page without media: 200, audio null and a warning; the server keeps serving', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['markdown', 'audio'] }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.data.audio).toBeNull();
    expect(res.body.data.warning).toContain('[audio]');
    expect(res.body.data.markdown).toContain('Harbour news');
    expect((await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(key))).status).toBe(200);
  });
});

describe('key restrictions and credits follow the plugins', () => {
  test('a key restricted to markdown gets 403 for each new format, naming it', async () => {
    for (const f of NEW_FORMATS) {
      const spec = f === 'attributes' ? { type: f, selectors: [{ selector: 'a', attribute: 'href' }] } : f;
      const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: [spec] }, trawl.auth(mdOnly));
      expect(res.status).toBe(403);
      expect(res.body.error).toContain(f);
    }
  });

  test('a key may be restricted to a format registered by the test', async () => {
    const wc = (await trawl.key({ formats: ['markdown', 'wordCount'] })).key;
    expect((await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['markdown', 'wordCount'] }, trawl.auth(wc))).status).toBe(200);
    expect((await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['html'] }, trawl.auth(wc))).status).toBe(403);
  });

  test('the test-registered format: scrape with its option, its warning and its 2 credits per page', async () => {
    const before = await trawl.credits(team);
    const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: [{ type: 'wordCount', min: 1000 }] }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.data.wordCount).toBeGreaterThan(10);
    expect(res.body.data.markdown).toBeUndefined(); // needed, computed, not requested
    expect(res.body.data.warning).toContain('[wordCount]');
    expect(res.body.data.metadata.creditsUsed).toBe(3);
    expect(before - (await trawl.credits(team))).toBe(3);
    const bad = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: [{ type: 'wordCount', min: -1 }] }, trawl.auth(key));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('wordCount');
  });

  test('the test-registered format in crawl scrapeOptions', async () => {
    const job = await fc.crawl(site.url('/'), { limit: 2, pollInterval: 1, scrapeOptions: { formats: ['wordCount' as never] } });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(2);
    for (const doc of job.data) {
      expect((doc as { wordCount?: number }).wordCount).toBeGreaterThan(0);
      expect(doc.metadata?.creditsUsed).toBe(3);
    }
  });

  test('credits of the new built-in formats are one per page (none declares more)', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['images', 'links'] }, trawl.auth(key));
    expect(res.body.data.metadata.creditsUsed).toBe(1);
  });
});
