/**
 * The v1 equivalents (interface.md Versioning 2; compat.md §19) through raw HTTP and the official
 * SDK's v1 client: v1 request forms are translated to v2, and answers come back in v1 form (flat
 * search `data`, string map `links`, `/v1` job URLs). Errors pass through unchanged.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import Firecrawl from 'firecrawl';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from './helpers.ts';
import { v1ScrapeOptions, v1SearchRequest, v1SearchResponse } from '../../core/http/v1-translate.ts';

setDefaultTimeout(60_000);

const page = (title: string, links = '') =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>About ${title}.</p>${links}</main></body></html>`;

let site: FixtureSite;
let trawl: AccountsTrawl;
let key: string;

beforeAll(async () => {
  site = serveFixtures({
    '/': page('Home', '<a href="/one">one</a> <a href="/two">two</a>'),
    '/one': page('One'),
    '/two': page('Two'),
  });
  trawl = await startAccountsTrawl();
  key = (await trawl.key()).key;
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

async function until<T>(fn: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  let v = await fn();
  for (let i = 0; i < 150 && !done(v); i++) {
    await Bun.sleep(100);
    v = await fn();
  }
  return v;
}

describe('translation', () => {
  test('scrape options', () => {
    expect(v1ScrapeOptions({ formats: ['markdown', 'screenshot@fullPage', 'json'], jsonOptions: { prompt: 'p', schema: { type: 'object' } }, parsePDF: false })).toEqual({
      formats: ['markdown', { type: 'screenshot', fullPage: true }, { type: 'json', prompt: 'p', schema: { type: 'object' } }],
      parsers: [],
      maxAge: 0,
      // no v1 30 s default with json: JSON mode keeps the v2 default of at least 60 s (compat.md §2.2)
      skipTlsVerification: false,
    });
    expect(v1ScrapeOptions({ timeout: 5000, maxAge: 10, skipTlsVerification: true })).toEqual({ timeout: 5000, maxAge: 10, skipTlsVerification: true });
  });

  test('search request and response', () => {
    expect(v1SearchRequest({ query: 'q', sources: ['news'], categories: ['pdf'] })).toEqual({ query: 'q', limit: 5 });
    expect(v1SearchRequest({ query: 'q', limit: 2, scrapeOptions: { formats: ['html'] } })).toEqual({
      query: 'q', limit: 2, scrapeOptions: { formats: ['html'], maxAge: 0, timeout: 30000, skipTlsVerification: false },
    });
    expect(v1SearchResponse({ success: true, data: { web: [{ url: 'a' }], news: [{ url: 'b' }] }, id: 'x', creditsUsed: 2 })).toEqual({
      success: true, data: [{ url: 'a' }, { url: 'b' }], id: 'x', creditsUsed: 2,
    });
    const error = { success: false, error: 'nope' };
    expect(v1SearchResponse(error)).toBe(error);
  });
});

describe('raw HTTP', () => {
  test('POST /v1/scrape', async () => {
    const res = await trawl.post('/v1/scrape', { url: site.url('/one'), formats: ['markdown', 'html'] }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.markdown).toContain('About One.');
    expect(res.body.data.html).toContain('About One.');
    expect(res.body.data.metadata.sourceURL).toBe(site.url('/one'));
    const again = await trawl.get(`/v1/scrape/${res.body.data.metadata.scrapeId}`, trawl.auth(key));
    expect(again.status).toBe(200);
  });

  test('errors pass through', async () => {
    const unauthorized = await trawl.post('/v1/crawl', { url: site.url('/') });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
    const bad = await trawl.post('/v1/scrape', { url: 'ftp://x.example/a' }, trawl.auth(key));
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    const notJson = await trawl.post('/v1/scrape', '{nope', trawl.auth(key));
    expect(notJson.status).toBe(400);
  });

  test('POST /v1/crawl and its status under /v1', async () => {
    const started = await trawl.post('/v1/crawl', { url: site.url('/'), limit: 5, ignoreSitemap: true }, trawl.auth(key));
    expect(started.status).toBe(200);
    expect(started.body.url).toBe(`${trawl.base}/v1/crawl/${started.body.id}`);
    const status = await until(() => trawl.get(`/v1/crawl/${started.body.id}`, trawl.auth(key)), (r) => r.body.status !== 'scraping');
    expect(status.body.status).toBe('completed');
    expect(status.body.data.map((d: any) => d.metadata.sourceURL).sort()).toEqual([site.url('/'), site.url('/one'), site.url('/two')].sort());
    if (status.body.next) expect(status.body.next).toContain('/v1/crawl/');
    const errors = await trawl.get(`/v1/crawl/${started.body.id}/errors`, trawl.auth(key));
    expect(errors.status).toBe(200);
    expect(errors.body.errors).toEqual([]);
  });

  test('POST /v1/batch/scrape', async () => {
    const started = await trawl.post('/v1/batch/scrape', { urls: [site.url('/one'), site.url('/two')], formats: ['markdown'] }, trawl.auth(key));
    expect(started.status).toBe(200);
    expect(started.body.url).toBe(`${trawl.base}/v1/batch/scrape/${started.body.id}`);
    const status = await until(() => trawl.get(`/v1/batch/scrape/${started.body.id}`, trawl.auth(key)), (r) => r.body.status !== 'scraping');
    expect(status.body.status).toBe('completed');
    expect(status.body.data.length).toBe(2);
  });

  test('POST /v1/map answers string links', async () => {
    const res = await trawl.post('/v1/map', { url: site.url('/') }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.links.length).toBeGreaterThan(0);
    for (const l of res.body.links) expect(typeof l).toBe('string');
    expect(res.body.links).toContain(site.url('/one'));
  });

  test('POST /v1/search answers a flat data array', async () => {
    const res = await trawl.post('/v1/search', { query: 'About One' }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    // The local index holds the pages scraped above; v1 gets them as a flat array.
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data[0]).toMatchObject({ url: site.url('/one'), title: 'One', position: 1 });
    expect(res.body.creditsUsed).toBe(2);
  });
});

describe('official SDK v1 client', () => {
  test('scrapeUrl, crawlUrl, mapUrl and search', async () => {
    const app = new Firecrawl({ apiKey: key, apiUrl: trawl.base }).v1;
    const scraped: any = await app.scrapeUrl(site.url('/two'), { formats: ['markdown'] });
    expect(scraped.success).toBe(true);
    expect(scraped.markdown).toContain('About Two.');
    const crawled: any = await app.crawlUrl(site.url('/'), { limit: 5 }, 1);
    expect(crawled.success).toBe(true);
    expect(crawled.status).toBe('completed');
    expect(crawled.data.length).toBe(3);
    const mapped: any = await app.mapUrl(site.url('/'), {}); // the v1 client needs the params object
    expect(mapped.success).toBe(true);
    expect(mapped.links).toContain(site.url('/two'));
    const found: any = await app.search('About Two', { limit: 3 });
    expect(found.success).toBe(true);
    expect(Array.isArray(found.data)).toBe(true);
  });
});
