/**
 * v1 crawl and batch scrape bodies are translated like v1 scrape (compat.md §19, issue 25 item 1):
 * `screenshot@fullPage`, `parsePDF`, the v1 defaults (maxAge 0, crawl `maxDepth` 10) and no `prompt`,
 * through the official SDK's v1 client (`firecrawl@4.42.0`, `.v1`) and raw HTTP.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { apiOf, waitDone, allDocs, type Api } from '../crawl/helpers.ts';
import { makePdf } from '../parsers/make-pdf.ts';
import { v1BatchRequest, v1CrawlRequest } from '../../core/http/v1-translate.ts';

setDefaultTimeout(120_000);

const page = (title: string, body = '') => `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>About ${title}, a page of the chain.</p>${body}</main></body></html>`;

let site: FixtureSite;
let trawl: TestTrawl;
let api: Api;
let fc: Firecrawl;
let visits = 0;

beforeAll(async () => {
  const routes: Record<string, any> = {
    '/counter': () => new Response(page(`Visit ${++visits}`), { headers: { 'content-type': 'text/html' } }),
    '/doc.pdf': { body: makePdf([{ items: [{ text: 'Harbour tide tables for the spring season', x: 72, y: 700, size: 14 }] }]), headers: { 'content-type': 'application/pdf' } },
  };
  // A chain /d0 -> /d1 -> ... -> /d13: each page one link deeper.
  for (let i = 0; i < 14; i++) routes[`/d${i}`] = page(`Depth ${i}`, i < 13 ? `<a href="/d${i + 1}">next</a>` : '');
  site = serveFixtures(routes);
  trawl = await startTrawl();
  api = apiOf(trawl);
  fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

describe('translation', () => {
  test('crawl: scrapeOptions as v1 scrape options, maxDepth 10, no prompt', () => {
    expect(v1CrawlRequest({ url: 'x', prompt: 'only blog', scrapeOptions: { formats: ['screenshot@fullPage'], parsePDF: false } })).toEqual({
      url: 'x',
      maxDepth: 10,
      scrapeOptions: { formats: [{ type: 'screenshot', fullPage: true }], parsers: [], maxAge: 0, timeout: 30000, skipTlsVerification: false },
    });
    expect(v1CrawlRequest({ url: 'x', maxDepth: 2, scrapeOptions: null }).maxDepth).toBe(2);
    expect(v1CrawlRequest({ url: 'x', maxDiscoveryDepth: 3 }).maxDepth).toBeUndefined();
  });
  test('batch: the flat body as v1 scrape options', () => {
    expect(v1BatchRequest({ urls: ['a'], formats: ['screenshot@fullPage'], timeout: 9000 })).toEqual({
      urls: ['a'], formats: [{ type: 'screenshot', fullPage: true }], timeout: 9000, maxAge: 0, skipTlsVerification: false,
    });
  });
});

describe('v1 crawl', () => {
  test('SDK v1: maxDepth defaults to 10 and a prompt is ignored (v2 would need an LLM)', async () => {
    // On v2 a prompt needs a model: with none the crawl runs on its explicit options and says so.
    const v2 = await api.post('/v2/crawl', { url: site.url('/d0'), prompt: 'only the chain', limit: 1 });
    expect(v2.status).toBe(200);
    expect(v2.body.warning).toContain('prompt');
    const started = await fc.v1.asyncCrawlUrl(site.url('/d0'), { limit: 50, ignoreSitemap: true, allowBackwardLinks: true, prompt: 'only the chain' } as any);
    expect(started.success).toBe(true);
    expect((started as any).promptGeneratedOptions).toBeUndefined();
    expect((started as any).warning).toBeUndefined();
    expect((started as any).url).toBe(`${trawl.base}/v1/crawl/${(started as any).id}`);
    const status = await waitDone(api, `/v1/crawl/${(started as any).id}`);
    expect(status.status).toBe('completed');
    const docs = await allDocs(api, `/v1/crawl/${(started as any).id}`);
    const depths = docs.map((d) => Number(new URL(d.metadata.sourceURL).pathname.slice(2))).sort((a, b) => a - b);
    expect(depths).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  test('screenshot@fullPage in scrapeOptions (was 400)', async () => {
    const res = await api.post('/v1/crawl', { url: site.url('/d13'), limit: 1, scrapeOptions: { formats: ['markdown', 'screenshot@fullPage'] } });
    expect(res.status).toBe(200);
    await waitDone(api, `/v1/crawl/${res.body.id}`);
    const [doc] = await allDocs(api, `/v1/crawl/${res.body.id}`);
    expect(doc.markdown).toContain('Depth 13');
    expect(typeof doc.screenshot).toBe('string');
  });
});

describe('v1 batch scrape', () => {
  test('SDK v1: maxAge 0 (no cache read) and parsePDF false (PDF as base64)', async () => {
    const first = await api.post('/v2/scrape', { url: site.url('/counter') });
    expect(first.body.data.markdown).toContain('Visit 1');
    // v2's default maxAge would answer the cached "Visit 1"; v1's maxAge 0 fetches again.
    const started = await fc.v1.asyncBatchScrapeUrls([site.url('/counter'), site.url('/doc.pdf')], { formats: ['markdown'], parsePDF: false } as any);
    expect(started.success).toBe(true);
    const id = (started as any).id;
    await waitDone(api, `/v1/batch/scrape/${id}`);
    const docs = await allDocs(api, `/v1/batch/scrape/${id}`);
    const counter = docs.find((d) => d.metadata.sourceURL.endsWith('/counter'));
    const pdf = docs.find((d) => d.metadata.sourceURL.endsWith('/doc.pdf'));
    expect(counter.markdown).toContain('Visit 2');
    expect(pdf.markdown).not.toContain('Harbour tide tables');
    expect(pdf.markdown).toContain('JVBER');
  });

  test('screenshot@fullPage (was 400)', async () => {
    const res = await api.post('/v1/batch/scrape', { urls: [site.url('/d12')], formats: ['screenshot@fullPage'] });
    expect(res.status).toBe(200);
    await waitDone(api, `/v1/batch/scrape/${res.body.id}`);
    const [doc] = await allDocs(api, `/v1/batch/scrape/${res.body.id}`);
    expect(typeof doc.screenshot).toBe('string');
  });
});
