/**
 * Crawls of the fixture site (test/fixtures/crawl-site) through the HTTP API of an embedded Trawl,
 * asserting the exact set of pages, error records and robots-blocked URLs for each crawl option of
 * interface.md "Crawl request body" and the implicit rules of compat.md §7.2.
 */
import { afterAll, beforeAll, setDefaultTimeout, describe, expect, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { apiOf, crawl, paths, type Api } from './helpers.ts';

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

const sources = (docs: any[]) => paths(docs.map((d) => d.metadata.sourceURL), site.origin);
const errorsOf = (e: any) => e.errors.map((x: any) => [paths([x.url], site.origin)[0], x.code ?? null]).sort();
const blocked = (e: any) => paths(e.robotsBlocked, site.origin);

const SITEMAP_PAGES = ['/', '/about', '/blog/', '/blog/post-1', '/blog/post-2', '/orphan'];
const DEFAULT_PAGES = [
  ...SITEMAP_PAGES, '/broken', '/deep/1', '/deep/2', '/deep/3', '/deep/4', '/docs/', '/docs/guide', '/docs/guide/advanced', '/moved',
  '/page?ref=1', '/page?ref=2', '/team',
].sort();

describe('crawl of the fixture site', () => {
  test('default options: sitemap index (gzip child, broken child) + links, robots, redirects, one fetch per page', async () => {
    site.resetStats();
    const { status, docs, errors } = await crawl(api, { url: `${site.origin}/` });
    expect(status.status).toBe('completed');
    expect(sources(docs)).toEqual(DEFAULT_PAGES);
    expect(status.completed).toBe(DEFAULT_PAGES.length);
    expect(status.total).toBe(DEFAULT_PAGES.length);
    expect([status.active, status.queued, status.backlog]).toEqual([0, 0, 0]);
    expect(errorsOf(errors)).toEqual([[`http://site.localhost:${new URL(errors.errors.find((e: any) => e.url.includes('/dead')).url).port}/dead`, 'SCRAPE_SITE_ERROR'], ['/redirect-external', null]].sort());
    expect(blocked(errors)).toEqual(['/private/secret']);
    expect(status.warning).toContain('robots.txt');
    // each page fetched once whatever its spelling; duplicates never fetched
    const mainHits = site.hits.filter((h) => h.startsWith('site.localhost ')).map((h) => h.slice('site.localhost '.length));
    // (/about is also reached once more by following the /old-page redirect)
    for (const p of DEFAULT_PAGES) expect(mainHits.filter((h) => h === p).length).toBe(p === '/about' ? 2 : 1);
    expect(mainHits.filter((h) => h === '/about/' || h === '/index.html').length).toBe(0);
    // other hosts: only the external homepage, reached by following /redirect-external (then skipped)
    expect(site.hits.filter((h) => !h.startsWith('site.localhost '))).toEqual(['127.0.0.2 /']);
    // the redirect onto /about was fetched but dropped silently; /moved kept with its final URL
    expect(mainHits.filter((h) => h === '/old-page').length).toBe(1);
    const moved = docs.find((d) => d.metadata.sourceURL.endsWith('/moved'));
    expect(moved.metadata.url).toBe(`${site.origin}/new-home`);
    expect(docs.find((d) => d.metadata.sourceURL.endsWith('/broken')).metadata.statusCode).toBe(404);
    // documents are distinct scrapes with markdown (the default format) and no internal rawHtml
    expect(new Set(docs.map((d) => d.metadata.scrapeId)).size).toBe(docs.length);
    for (const d of docs) {
      expect(typeof d.markdown).toBe('string');
      expect(d.rawHtml).toBeUndefined();
    }
    expect(status.creditsUsed).toBe(DEFAULT_PAGES.length);
  });

  test('sitemap "skip": links only; "only": sitemap URLs plus the start URL, no link discovery', async () => {
    const skip = await crawl(api, { url: `${site.origin}/`, sitemap: 'skip' });
    expect(sources(skip.docs)).toEqual(DEFAULT_PAGES.filter((p) => !p.startsWith('/blog') && p !== '/orphan'));
    expect(blocked(skip.errors)).toEqual(['/private/secret']);
    const only = await crawl(api, { url: `${site.origin}/`, sitemap: 'only' });
    expect(sources(only.docs)).toEqual(SITEMAP_PAGES);
    expect(only.errors.errors).toEqual([]);
    expect(blocked(only.errors)).toEqual(['/private/secret']);
  });

  test('robots.txt: ignoreRobotsTxt, and robotsUserAgent picks its own group', async () => {
    const ignored = await crawl(api, { url: `${site.origin}/`, sitemap: 'only', ignoreRobotsTxt: true });
    expect(sources(ignored.docs)).toEqual([...SITEMAP_PAGES, '/private/secret'].sort());
    expect(ignored.errors.robotsBlocked).toEqual([]);
    const special = await crawl(api, { url: `${site.origin}/`, sitemap: 'only', robotsUserAgent: 'SpecialBot' });
    expect(sources(special.docs)).toEqual(['/', '/about', '/orphan', '/private/secret']);
    expect(blocked(special.errors)).toEqual(['/blog/', '/blog/post-1', '/blog/post-2']);
  });

  test('maxDiscoveryDepth: root and sitemap pages are depth 0; pages at the maximum are scraped, their links not followed', async () => {
    const d0 = await crawl(api, { url: `${site.origin}/`, maxDiscoveryDepth: 0 });
    expect(sources(d0.docs)).toEqual(SITEMAP_PAGES);
    const d1 = await crawl(api, { url: `${site.origin}/`, maxDiscoveryDepth: 1 });
    expect(sources(d1.docs)).toEqual(
      [...SITEMAP_PAGES, '/broken', '/deep/1', '/docs/', '/docs/guide', '/moved', '/page?ref=1', '/page?ref=2', '/team'].sort(),
    );
  });

  test('limit counts accepted pages breadth first; a failed page frees its slot', async () => {
    const five = await crawl(api, { url: `${site.origin}/`, limit: 5 });
    expect(sources(five.docs)).toEqual(['/', '/about', '/blog/', '/blog/post-1', '/orphan']);
    expect(five.status.completed).toBe(5);
    const hub = await crawl(api, { url: `${site.origin}/hub`, limit: 3, sitemap: 'skip' });
    expect(sources(hub.docs)).toEqual(['/hub', '/hub/a', '/hub/b']);
    expect(hub.errors.errors.map((e: any) => e.code)).toEqual(['SCRAPE_SITE_ERROR']);
  });

  test('crawlEntireDomain: without it only the start path; with it the whole host; few results warn', async () => {
    const docsOnly = await crawl(api, { url: `${site.origin}/docs/` });
    expect(sources(docsOnly.docs)).toEqual(['/docs/', '/docs/guide', '/docs/guide/advanced']);
    const entire = await crawl(api, { url: `${site.origin}/docs/`, crawlEntireDomain: true });
    expect(sources(entire.docs)).toEqual(DEFAULT_PAGES);
    const leaf = await crawl(api, { url: `${site.origin}/docs/guide/advanced`, sitemap: 'skip' });
    expect(leaf.status.completed).toBe(1);
    expect(leaf.status.warning).toMatch(/Only 1 result\(s\) found.*base domain \(site\.localhost\)/);
  });

  test('allowSubdomains follows the registrable domain, with the subdomain\'s own robots.txt', async () => {
    const { docs, errors } = await crawl(api, { url: `${site.origin}/`, allowSubdomains: true, sitemap: 'skip' });
    const subPages = docs.map((d) => d.metadata.sourceURL).filter((u: string) => u.startsWith(site.sub)).sort();
    expect(subPages).toEqual([`${site.sub}/`, `${site.sub}/start`]);
    expect(errors.robotsBlocked.sort()).toEqual([`${site.sub}/next`, `${site.origin}/private/secret`]);
    expect(docs.some((d) => d.metadata.sourceURL.startsWith(site.external))).toBe(false);
  });

  test('allowExternalLinks: one hop, external homepages skipped with EXTERNAL_LINK (links and redirects)', async () => {
    site.resetStats();
    const { docs, errors } = await crawl(api, { url: `${site.origin}/`, allowExternalLinks: true, sitemap: 'skip' });
    const external = docs.map((d) => d.metadata.sourceURL).filter((u: string) => !u.startsWith(site.origin)).sort();
    expect(external).toEqual([`${site.external}/article`, `${site.sub}/start`].sort());
    const codes = errors.errors.map((e: any) => [e.url, e.code ?? null]).sort();
    expect(codes).toEqual(
      [
        [`${site.external}/`, 'EXTERNAL_LINK'],
        [`${site.sub}/`, 'EXTERNAL_LINK'],
        [`${site.origin}/redirect-external`, 'EXTERNAL_LINK'],
        [errors.errors.find((e: any) => e.url.endsWith('/dead')).url, 'SCRAPE_SITE_ERROR'],
      ].sort(),
    );
    expect(site.hits).not.toContain('127.0.0.2 /article-2');
    expect(site.hits.some((h) => h.includes('github'))).toBe(false);
  });

  test('ignoreQueryParameters scrapes one URL per path', async () => {
    const { docs } = await crawl(api, { url: `${site.origin}/`, ignoreQueryParameters: true, sitemap: 'skip', maxDiscoveryDepth: 1 });
    const pageDocs = docs.filter((d) => d.metadata.sourceURL.includes('/page'));
    expect(pageDocs.map((d) => d.metadata.sourceURL)).toEqual([`${site.origin}/page`]);
  });

  test('includePaths / excludePaths (RE2), on the pathname or with regexOnFullURL', async () => {
    const blog = await crawl(api, { url: `${site.origin}/`, includePaths: ['^/blog/'] });
    expect(sources(blog.docs)).toEqual(['/blog/', '/blog/post-1', '/blog/post-2']);
    const excl = await crawl(api, { url: `${site.origin}/`, excludePaths: ['^/deep/', 'post-2'] });
    expect(sources(excl.docs)).toEqual(DEFAULT_PAGES.filter((p) => !p.startsWith('/deep/') && p !== '/blog/post-2'));
    const path = await crawl(api, { url: `${site.origin}/`, excludePaths: ['ref=1'], sitemap: 'skip', maxDiscoveryDepth: 1 });
    expect(sources(path.docs).filter((p) => p.startsWith('/page'))).toEqual(['/page?ref=1', '/page?ref=2']);
    const full = await crawl(api, { url: `${site.origin}/`, excludePaths: ['ref=1'], regexOnFullURL: true, sitemap: 'skip', maxDiscoveryDepth: 1 });
    expect(sources(full.docs).filter((p) => p.startsWith('/page'))).toEqual(['/page?ref=2']);
  });

  test('bad patterns are a 400 before anything starts', async () => {
    for (const body of [
      { includePaths: ['^/a(?=b)'] },
      { excludePaths: ['(x)\\1'] },
      { includePaths: ['x'.repeat(2001)] },
      { includePaths: Array.from({ length: 1001 }, (_, i) => `p${i}`) },
    ]) {
      const res = await api.post('/v2/crawl', { url: `${site.origin}/`, ...body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    }
  });

  test('maxConcurrency bounds pages in flight; delay forces one at a time', async () => {
    site.setLatency(150);
    try {
      site.resetStats();
      await crawl(api, { url: `${site.origin}/`, maxConcurrency: 2, sitemap: 'only' });
      expect(site.maxInFlight()).toBe(2);
      site.resetStats();
      const started = Date.now();
      const slow = await crawl(api, { url: `${site.origin}/docs/`, delay: 0.3 });
      expect(slow.status.completed).toBe(3);
      expect(site.maxInFlight()).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    } finally {
      site.setLatency(0);
    }
  });

  test('per-page scrapeOptions apply to every page', async () => {
    const { docs } = await crawl(api, { url: `${site.origin}/docs/`, scrapeOptions: { formats: ['html', 'links'], onlyMainContent: false } });
    expect(docs.length).toBe(3);
    for (const d of docs) {
      expect(d.markdown).toBeUndefined();
      expect(typeof d.html).toBe('string');
      expect(Array.isArray(d.links)).toBe(true);
    }
    expect(docs.find((d) => d.metadata.sourceURL.endsWith('/docs/')).links).toContain(`${site.origin}/docs/guide`);
  });
});
