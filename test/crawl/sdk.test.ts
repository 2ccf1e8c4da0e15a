/**
 * The official SDK `firecrawl@4.42.0`, unchanged and pointed at Trawl with `apiUrl`: crawl (waiter),
 * startCrawl + getCrawlStatus paging, its WebSocket watcher for crawls and batches, batchScrape,
 * map, getCrawlErrors, getActiveCrawls and cancelCrawl (compat.md §21 lists what it breaks on).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';

setDefaultTimeout(60_000);

let trawl: TestTrawl;
let site: CrawlSite;
let fc: Firecrawl;

beforeAll(async () => {
  site = startCrawlSite();
  trawl = await startTrawl();
  fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

const DOCS_PAGES = ['/docs/', '/docs/guide', '/docs/guide/advanced'];
const pathsOf = (docs: any[]) => docs.map((d) => d.metadata.sourceURL.slice(site.origin.length)).sort();

describe('firecrawl SDK against Trawl', () => {
  test('crawl() waits for completion and returns every document', async () => {
    const job = await fc.crawl(`${site.origin}/docs/`, { limit: 10, pollInterval: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(3);
    expect(job.total).toBe(3);
    expect(pathsOf(job.data)).toEqual(DOCS_PAGES);
    expect(job.data.every((d: any) => typeof d.markdown === 'string' && d.markdown.length > 0)).toBe(true);
  });

  test('startCrawl + getCrawlStatus follow next pages; getCrawlErrors; getActiveCrawls', async () => {
    const started = await fc.startCrawl(`${site.origin}/`, { limit: 50 });
    expect(started.url).toBe(`${trawl.base}/v2/crawl/${started.id}`);
    const active = await fc.getActiveCrawls();
    expect(active.crawls.some((c: any) => c.id === started.id)).toBe(true);
    let status = await fc.getCrawlStatus(started.id);
    for (let i = 0; i < 120 && status.status === 'scraping'; i++) {
      await Bun.sleep(500);
      status = await fc.getCrawlStatus(started.id);
    }
    expect(status.status).toBe('completed');
    expect(status.data.length).toBe(status.completed);
    expect(status.completed).toBeGreaterThan(15);
    const paged = await fc.getCrawlStatus(started.id, { autoPaginate: true });
    expect(paged.data.length).toBe(status.completed);
    const errors = await fc.getCrawlErrors(started.id);
    expect(errors.robotsBlocked).toEqual([`${site.origin}/private/secret`]);
    expect(errors.errors.some((e: any) => e.code === 'SCRAPE_SITE_ERROR')).toBe(true);
  });

  test('watcher over WebSocket: documents, then done with the completed snapshot', async () => {
    site.setLatency(100);
    try {
      const started = await fc.startCrawl(`${site.origin}/docs/`, { maxConcurrency: 1 });
      const watcher = fc.watcher(started.id, { kind: 'crawl', pollInterval: 1 });
      const docs: any[] = [];
      watcher.on('document', (d: any) => docs.push(d));
      const done = new Promise<any>((resolve, reject) => {
        watcher.on('done', resolve);
        watcher.on('error', reject);
      });
      await watcher.start();
      const end = await done;
      expect(end.status).toBe('completed');
      expect(pathsOf(docs)).toEqual(DOCS_PAGES);
    } finally {
      site.setLatency(0);
    }
  });

  test('batchScrape() and the batch watcher', async () => {
    const urls = [`${site.origin}/about`, `${site.origin}/team`, `${site.origin}/orphan`];
    const job = await fc.batchScrape(urls, { options: { formats: ['markdown'] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data.map((d: any) => d.metadata.sourceURL).sort()).toEqual(urls.sort());
    const started = await fc.startBatchScrape(urls, { options: { formats: ['markdown'] } });
    const watcher = fc.watcher(started.id, { kind: 'batch', pollInterval: 1 });
    const docs: any[] = [];
    watcher.on('document', (d: any) => docs.push(d));
    const done = new Promise<any>((resolve, reject) => {
      watcher.on('done', resolve);
      watcher.on('error', reject);
    });
    await watcher.start();
    expect((await done).status).toBe('completed');
    expect(docs.length).toBe(3);
  });

  test('map() returns link objects', async () => {
    const res = await fc.map(`${site.origin}/`, { limit: 5, sitemap: 'only' });
    expect(res.links.map((l: any) => l.url)).toEqual([`${site.origin}/`, `${site.origin}/about`, `${site.origin}/orphan`, `${site.origin}/private/secret`, `${site.origin}/blog/`]);
    expect(res.links[0].title).toBeUndefined();
    const withTitles = await fc.map(`${site.origin}/`, { limit: 3 });
    expect(withTitles.links[0]).toMatchObject({ url: `${site.origin}/`, title: 'Home' });
  });

  test('cancelCrawl() reports true and the crawl ends cancelled', async () => {
    site.setLatency(300);
    try {
      const started = await fc.startCrawl(`${site.origin}/`, { maxConcurrency: 1 });
      await Bun.sleep(400);
      expect(await fc.cancelCrawl(started.id)).toBe(true);
      const status = await fc.getCrawlStatus(started.id);
      expect(status.status).toBe('cancelled');
    } finally {
      site.setLatency(0);
    }
  });
});
