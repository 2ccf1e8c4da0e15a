/**
 * The official SDK (`firecrawl@4.42.0`) against Trawl, unchanged (issue 3 "Done when"): scrape with
 * actions and their results, the screenshot format, cache options (maxAge, storeInCache, minAge,
 * lockdown), mobile/location/proxy options, cache-only misses as SDK errors, and interact.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { startSite, type Site } from './site.ts';
import { download, startOn, type TestTrawl } from './helpers.ts';

setDefaultTimeout(60_000);

let site: Site;
let trawl: TestTrawl;
let fc: Firecrawl;

beforeAll(async () => {
  site = startSite();
  trawl = await startOn({ TRAWL_AUTH: 'keys' });
  fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 60_000);

describe('firecrawl SDK scrape', () => {
  test('actions, their results and the screenshot format', async () => {
    const doc = await fc.scrape(site.url('/form'), {
      formats: ['markdown', { type: 'screenshot', fullPage: true }],
      actions: [
        { type: 'click', selector: '#name' },
        { type: 'write', text: 'Sam' },
        { type: 'press', key: 'Tab' },
        { type: 'click', selector: '#go' },
        { type: 'wait', milliseconds: 100 },
        { type: 'screenshot' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'scroll', direction: 'down' },
        { type: 'pdf', format: 'Letter' },
      ],
      mobile: false,
      waitFor: 100,
      timeout: 30_000,
    });
    expect(doc.markdown).toContain('Hello, Sam!');
    expect(doc.screenshot).toStartWith(`${trawl.base}/v2/blobs/`);
    expect((await download(doc.screenshot!)).type).toBe('image/png');
    expect(doc.actions?.screenshots).toHaveLength(1);
    expect((doc.actions?.scrapes as { html: string }[] | undefined)?.[0]?.html).toContain('Hello, Sam!');
    expect(doc.actions?.javascriptReturns).toEqual([{ type: 'string', value: 'Form' }]);
    expect(doc.actions?.pdfs).toHaveLength(1);
    expect(doc.metadata?.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('cache options: a stored page comes back as a hit; storeInCache false and maxAge 0 scrape fresh', async () => {
    const url = site.url('/counter?sdk');
    const first = await fc.scrape(url, { formats: ['markdown'], storeInCache: true });
    expect(first.metadata?.cacheState).toBe('miss');
    const hit = await fc.scrape(url, { formats: ['markdown'], maxAge: 3_600_000 });
    expect(hit.metadata?.cacheState).toBe('hit');
    expect(hit.metadata?.cachedAt).toBeTruthy();
    expect(hit.markdown).toBe(first.markdown);
    const fresh = await fc.scrape(url, { formats: ['markdown'], maxAge: 0, storeInCache: false });
    expect(fresh.metadata?.cacheState).toBe('miss');
    expect(fresh.markdown).not.toBe(first.markdown);
    const minAge = await fc.scrape(url, { formats: ['markdown'], minAge: 1 });
    expect(minAge.metadata?.cacheState).toBe('hit');
    const lockdown = await fc.scrape(url, { formats: ['markdown'], lockdown: true });
    expect(lockdown.metadata?.cacheState).toBe('hit');
  });

  test('a lockdown miss surfaces as an SDK error with the 404 code', async () => {
    let error: any;
    try {
      await fc.scrape(site.url('/counter?never'), { lockdown: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeDefined();
    expect(String(error?.message ?? error)).toMatch(/lockdown/i);
    expect(error?.status ?? error?.statusCode).toBe(404);
  });

  test('location, mobile and proxy options are accepted', async () => {
    const doc = await fc.scrape(site.url('/echo'), { formats: ['markdown'], location: { country: 'FR', languages: ['fr-FR'] }, mobile: true, proxy: 'auto', onlyMainContent: false });
    expect(doc.markdown).toContain('"tz":"Europe/Paris"');
    expect(doc.markdown).toContain('"width":412');
    expect(doc.metadata?.proxyUsed).toBe('basic');
  });

  test('interact and stopInteraction', async () => {
    const doc = await fc.scrape(site.url('/form'), { formats: ['markdown'] });
    const id = doc.metadata!.scrapeId!;
    const run = await fc.interact(id, { code: `await page.type('#name', 'Kit'); await page.click('#go'); console.log(await page.textContent('#out'));` });
    expect(run.success).toBe(true);
    expect(run.stdout).toBe('Hello, Kit!\n');
    expect(run.exitCode).toBe(0);
    const stopped = await fc.stopInteraction(id);
    expect(stopped.success).toBe(true);
    expect(stopped.creditsBilled).toBe(1);
  });
});
