/**
 * `POST /v2/map` on the fixture site (compat.md §10): sitemap plus start-page links without scraping
 * every page, same-site and start-path filtering, subdomains, query handling, search ranking,
 * `sitemap` modes with `limit`, the 408 MAP_TIMEOUT, and the v1 string form.
 */
import { afterAll, beforeAll, setDefaultTimeout, expect, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { apiOf, paths, type Api } from './helpers.ts';

setDefaultTimeout(60_000);

let trawl: TestTrawl;
let site: CrawlSite;
let api: Api;

beforeAll(async () => {
  site = startCrawlSite();
  trawl = await startTrawl();
  api = apiOf(trawl);
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

const map = async (body: Record<string, unknown>, version = 'v2') => {
  const res = await api.post(`/${version}/map`, body);
  if (res.status !== 200) throw new Error(`map ${res.status}: ${res.text}`);
  expect(res.body.success).toBe(true);
  return res.body;
};

test('sitemap and start-page links, same site only, queries dropped, fetched pages only a few', async () => {
  site.resetStats();
  const body = await map({ url: `${site.origin}/` });
  const deadPort = body.links.map((l: any) => new URL(l.url)).find((u: URL) => u.pathname === '/dead')?.port;
  expect(body.links[0]).toEqual({ url: `${site.origin}/`, title: 'Home', description: 'Home page' });
  expect(paths(body.links.map((l: any) => l.url), site.origin)).toEqual(
    [
      '/', '/about', '/orphan', '/private/secret', '/blog/', '/blog/post-1', '/blog/post-2', '/docs/', '/docs/guide', '/old-page', '/moved',
      '/broken', `${site.sub}/`, `${site.sub}/start`, '/page', '/deep/1', '/redirect-external', `http://site.localhost:${deadPort}/dead`,
    ].sort(),
  );
  // map does not scrape the pages it lists
  const pages = site.hits.filter((h) => h.startsWith('site.localhost ') && !h.includes('sitemap') && !h.includes('robots'));
  expect(pages).toEqual(['site.localhost /']);
});

test('includeSubdomains:false, ignoreQueryParameters:false, path filter', async () => {
  const noSub = await map({ url: `${site.origin}/`, includeSubdomains: false });
  expect(noSub.links.some((l: any) => l.url.startsWith(site.sub))).toBe(false);
  const withQuery = await map({ url: `${site.origin}/`, ignoreQueryParameters: false });
  expect(withQuery.links.map((l: any) => l.url).filter((u: string) => u.includes('/page'))).toEqual([`${site.origin}/page?ref=1`, `${site.origin}/page?ref=2`]);
  const docs = await map({ url: `${site.origin}/docs/` });
  expect(docs.links.map((l: any) => l.url)).toEqual([`${site.origin}/docs/`, `${site.origin}/docs/guide`]);
});

test('sitemap modes and limit; search ranks matching links first', async () => {
  const only = await map({ url: `${site.origin}/`, sitemap: 'only', limit: 3 });
  expect(only.links.map((l: any) => l.url)).toEqual([`${site.origin}/`, `${site.origin}/about`, `${site.origin}/orphan`]);
  const skip = await map({ url: `${site.origin}/`, sitemap: 'skip' });
  expect(skip.links.some((l: any) => l.url.includes('/blog') || l.url.includes('/orphan'))).toBe(false);
  const search = await map({ url: `${site.origin}/`, search: 'blog post', limit: 4 });
  expect(search.links.length).toBe(4);
  expect(search.links.slice(0, 3).map((l: any) => l.url).sort()).toEqual([`${site.origin}/blog/`, `${site.origin}/blog/post-1`, `${site.origin}/blog/post-2`]);
});

test('timeout: 408 MAP_TIMEOUT', async () => {
  site.setLatency(500);
  try {
    const res = await api.post('/v2/map', { url: `${site.origin}/`, timeout: 100 });
    expect(res.status).toBe(408);
    expect(res.body.code).toBe('MAP_TIMEOUT');
    expect(res.body.error).toContain('The map operation timed out');
  } finally {
    site.setLatency(0);
  }
});

test('v1: links as strings, sitemap ignored by default', async () => {
  const v1 = await map({ url: `${site.origin}/` }, 'v1');
  expect(typeof v1.links[0]).toBe('string');
  expect(v1.links).toContain(`${site.origin}/about`);
  expect(v1.links).not.toContain(`${site.origin}/orphan`);
});
