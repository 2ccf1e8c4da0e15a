/**
 * One large page must not stall the API (issue 15 item 8). `/health` keeps answering while a 15 MB page
 * of 500,000 links is being scraped with the default configuration (on 2 cores too: a content thread
 * builds the document off the main thread); links per page are capped (MAX_LINKS_PER_PAGE) in the
 * links format, in what a crawl follows and in map; sitemaps are read to a budget. The bound on
 * `/health` catches a hang only (the 1 s figure is measured in bench/security/large-pages.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { MAX_LINKS_PER_PAGE, loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { Registry } from '../../core/registry.ts';
import { extractLinks as crawlLinks } from '../../core/crawl/links.ts';
import { MAX_SITEMAP_URLS, parseSitemap, readSitemaps } from '../../core/crawl/sitemap.ts';
import { extractLinks } from '../../parsers/html/links.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';

const many = (n: number) => Array.from({ length: n }, (_, i) => `<li><a href="/p/${i}">${i}</a>`).join('\n');

describe('links per page', () => {
  const html = `<html><head><title>t</title></head><body>${many(MAX_LINKS_PER_PAGE + 2_000)}</body></html>`;
  test('the links format and a crawl keep the first MAX_LINKS_PER_PAGE links', () => {
    const links = extractLinks(html, 'http://site.test/');
    expect(links.length).toBe(MAX_LINKS_PER_PAGE);
    expect(links[0]).toBe('http://site.test/p/0');
    expect(links.at(-1)).toBe(`http://site.test/p/${MAX_LINKS_PER_PAGE - 1}`);
  });
  test("map's start page too", () => {
    const { links, title } = crawlLinks(html, 'http://site.test/');
    expect(links.length).toBe(MAX_LINKS_PER_PAGE);
    expect(title).toBe('t');
  });
});

describe('sitemaps', () => {
  test('a sitemap is parsed only up to the budget', () => {
    const xml = `<urlset>${Array.from({ length: 5_000 }, (_, i) => `<url><loc>http://s/${i}</loc></url>`).join('')}</urlset>`;
    expect(parseSitemap(xml, 100).pages.length).toBe(100);
    const text = Array.from({ length: 5_000 }, (_, i) => `http://s/${i}`).join('\n');
    expect(parseSitemap(text, 100).pages.length).toBe(100);
  });

  test('one discovery reads at most MAX_SITEMAP_URLS from a larger sitemap', async () => {
    const body = Array.from({ length: MAX_SITEMAP_URLS + 50_000 }, (_, i) => `http://127.0.0.1/u/${i}`).join('\n');
    const site = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(body, { headers: { 'content-type': 'text/plain' } }) });
    try {
      const config = loadConfig({ TRAWL_ALLOW_PRIVATE_TARGETS: 'true' });
      const deps = { config, log: silentLogger, registry: new Registry(), blobs: undefined as never };
      const result = await readSitemaps(deps, [`http://127.0.0.1:${site.port}/sitemap.txt`], 10_000_000);
      expect(result.failed).toEqual([]);
      expect(result.urls.length).toBe(MAX_SITEMAP_URLS);
    } finally {
      site.stop(true);
    }
  }, 60_000);
});

describe('/health during a large scrape', () => {
  let trawl: TestTrawl;
  let site: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    const page = `<!doctype html><html><head><title>Many</title></head><body><ul>${many(500_000)}</ul></body></html>`;
    site = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(page, { headers: { 'content-type': 'text/html' } }) });
    trawl = await startTrawl({ TRAWL_AUTH: 'off' });
  });
  afterAll(async () => {
    await trawl?.stop();
    site?.stop(true);
  });

  test('answers while the page is parsed (default configuration)', async () => {
    expect(loadConfig({}).contentThreads).toBeGreaterThanOrEqual(1);
    const scrape = trawl.post('/v2/scrape', { url: `http://127.0.0.1:${site.port}/`, formats: ['markdown', 'links'], timeout: 15_000 });
    let worst = 0;
    const until = Date.now() + 8_000;
    while (Date.now() < until) {
      const started = Date.now();
      const res = await fetch(`${trawl.base}/health`, { signal: AbortSignal.timeout(20_000) });
      expect(res.status).toBe(200);
      worst = Math.max(worst, Date.now() - started);
      await Bun.sleep(200);
    }
    // Parsing on the main thread held /health for the whole parse (48 s for a 30 MB page).
    expect(worst).toBeLessThan(10_000);
    const done = await scrape;
    expect([200, 408]).toContain(done.status);
    if (done.status === 200) expect(done.body.data.links.length).toBe(MAX_LINKS_PER_PAGE);
  }, 120_000);
});
