/**
 * The SearXNG provider against Debian's real `searx` (1.1): the test serves a small local site,
 * indexes its pages into SQLite, starts searx with `sqlite` engines over that index, and searches it
 * through the provider plugin and through POST /v2/search (search, then scrape every result).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import type { SearchContext, SearchQuery } from '../../core/plugin.ts';
import searxng from '../../plugins/search/searxng.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { searxUnavailable, startSearx, type Searx } from './searx.ts';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  '/tides': page('Tide tables of the North Sea', '<p>The tide rises twice a day along the coast of the North Sea. Fishermen read tide tables before leaving the harbour.</p>'),
  '/moon': page('Moon and tides', '<p>Spring tides come at new and full moon; neap tides come between them.</p>'),
  '/harbour': page('Harbour opening hours', '<p>The harbour opens at six. Boats wait for high water.</p>'),
  '/volcano': page('Volcanoes of Iceland', '<p>Lava fields and geysers far from any sea.</p>'),
};

const reason = searxUnavailable();
let site: FixtureSite;
let searx: Searx;

beforeAll(async () => {
  if (reason) return;
  site = serveFixtures(PAGES);
  // Build the index the way a crawler would: fetch each page of the site.
  const pages = await Promise.all(
    Object.keys(PAGES).map(async (path) => ({
      url: site.url(path),
      html: await (await fetch(site.url(path))).text(),
      newsDate: path === '/tides' ? '2026-11-20 10:00:00' : undefined,
      image: path === '/moon' ? { src: site.url('/img/moon.png'), width: 640, height: 480 } : undefined,
    })),
  );
  searx = await startSearx(pages);
}, 60_000);

afterAll(async () => {
  await searx?.stop();
  site?.stop();
});

describe.skipIf(Boolean(reason))(`searxng provider against real searx${reason ? ` (skipped: ${reason})` : ''}`, () => {
  const ctx = (): SearchContext => ({
    config: loadConfig({ SEARXNG_URL: searx.url }),
    log: silentLogger,
    signal: AbortSignal.timeout(15_000),
    deadline: Date.now() + 15_000,
    blobs: {} as never,
    db: { query: async () => [] },
  });
  const q = (over: Partial<SearchQuery>): SearchQuery => ({ query: 'tide', source: 'web', limit: 10, timeoutMs: 15_000, ...over });

  test('web results come from the sqlite engine, mapped to url/title/description', async () => {
    const hits = await searxng.search(q({ query: 'tide' }), ctx());
    expect(hits.map((h) => h.url).sort()).toEqual([site.url('/tides')]);
    expect(hits[0].title).toBe('Tide tables of the North Sea');
    expect(hits[0].description).toContain('The tide rises twice a day');
    const moon = await searxng.search(q({ query: 'tides' }), ctx());
    expect(moon.map((h) => h.url)).toEqual([site.url('/moon')]);
    expect(await searxng.search(q({ query: 'zeppelin' }), ctx())).toEqual([]);
  });

  test('news and images categories', async () => {
    const news = await searxng.search(q({ query: 'tide', source: 'news' }), ctx());
    expect(news.map((h) => h.url)).toEqual([site.url('/tides')]);
    const images = await searxng.search(q({ query: 'moon', source: 'images' }), ctx());
    expect(images).toEqual([expect.objectContaining({ url: site.url('/moon'), imageUrl: site.url('/img/moon.png'), imageWidth: 640, imageHeight: 480 })]);
  });

  test('limit caps the results', async () => {
    const all = await searxng.search(q({ query: 'tide OR harbour OR lava' }), ctx());
    expect(all.map((h) => h.url).sort()).toEqual([site.url('/harbour'), site.url('/tides'), site.url('/volcano')]);
    const hits = await searxng.search(q({ query: 'tide OR harbour OR lava', limit: 2 }), ctx());
    expect(hits).toHaveLength(2);
  });

  test('an unreachable instance fails with the provider named', async () => {
    const c = { ...ctx(), config: loadConfig({ SEARXNG_URL: 'http://127.0.0.1:9' }) };
    const err = await searxng.search(q({}), c).catch((e) => e);
    expect(String(err.message)).toStartWith('[searxng] request failed');
  });

  describe('through POST /v2/search', () => {
    let trawl: TestTrawl;
    beforeAll(async () => {
      trawl = await startTrawl({ TRAWL_AUTH: 'off', SEARXNG_URL: searx.url, TRAWL_SEARCH_PROVIDERS: 'searxng' });
    }, 60_000);
    afterAll(async () => trawl?.stop());

    test('search answers from searx, grouped, positions from 1', async () => {
      const res = await trawl.post('/v2/search', { query: 'harbour', limit: 5 });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(Object.keys(res.body.data)).toEqual(['web']);
      expect(res.body.data.web).toEqual([
        { url: site.url('/harbour'), title: 'Harbour opening hours', description: expect.stringContaining('The harbour opens at six'), position: 1 },
        { url: site.url('/tides'), title: 'Tide tables of the North Sea', description: expect.stringContaining('before leaving the harbour'), position: 2 },
      ]);
      expect(res.body.creditsUsed).toBe(2);
      expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    });

    test('search then scrape returns markdown for each result', async () => {
      const res = await trawl.post('/v2/search', { query: 'tide', sources: ['web', 'news'], scrapeOptions: { formats: ['markdown'] } });
      expect(res.status).toBe(200);
      const items = [...res.body.data.web, ...res.body.data.news];
      expect(items.length).toBe(2);
      for (const item of items) {
        expect(item.markdown).toContain('# Tide tables of the North Sea');
        expect(item.metadata.sourceURL).toBe(site.url('/tides'));
        expect(item.metadata.statusCode).toBe(200);
      }
      // 2 results: 2 search credits, plus 1 per scraped page
      expect(res.body.creditsUsed).toBe(4);
    });
  });
});
