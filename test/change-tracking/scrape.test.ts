/**
 * Change tracking end to end (issue 20 scope 1) against a real Trawl (embedded database, no model
 * configured) and a fixture page the test changes between scrapes: new → same → changed → removed
 * (the page answers 404) with the right git-diff, through the official SDK (`firecrawl@4.42.0`,
 * unchanged); json mode on the deterministic path; tags and teams keep separate histories; zero
 * data retention keeps nothing; crawl and batch pages carry it; bad input is a 400.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { createKey, createTeam } from '../../core/auth/keys.ts';

setDefaultTimeout(120_000);

/** What the fixture page says; the tests change it between scrapes. */
const state = { price: '10', gone: false, news: 'Opening hours: 9 to 5' };
const lamp = () =>
  `<html><head><title>Lamp</title></head><body><main><h1>Desk lamp</h1><p>Colour: Green</p><p>Price: ${state.price} EUR</p><p>Made of brass and glass.</p></main></body></html>`;

const page = () => new Response(lamp(), { headers: { 'content-type': 'text/html' } });

let site: FixtureSite;
let trawl: TestTrawl;
let fc: Firecrawl;
const diffFormat = { type: 'changeTracking' as const, modes: ['git-diff' as const] };

beforeAll(async () => {
  site = serveFixtures({
    '/lamp': () => (state.gone ? new Response('<html><body><h1>Not found</h1></body></html>', { status: 404, headers: { 'content-type': 'text/html' } }) : page()),
    '/tags': page,
    '/teams': page,
    '/json': page,
    '/zdr': page,
    '/site/': `<html><body><main><p>Index of the shop.</p><a href="/site/news">news</a></main></body></html>`,
    '/site/news': () => new Response(`<html><body><main><h1>News</h1><p>${state.news}</p></main></body></html>`, { headers: { 'content-type': 'text/html' } }),
  });
  trawl = await startTrawl({});
  fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

const db = () => trawl.running.services.db;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const scrape = async (url: string, formats: unknown[], extra: Record<string, unknown> = {}, key = trawl.adminKey!) => {
  const r = await trawl.post('/v2/scrape', { url, formats, ...extra }, auth(key));
  expect([r.status, r.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
  return r.body.data;
};
const rows = async (url: string) => db().query<{ tag: string; gone: boolean; scraped_at: Date }>('SELECT tag, gone, scraped_at FROM page_versions WHERE url = $1 ORDER BY tag', [url]);

describe('SDK scrape with changeTracking', () => {
  test('new → same → changed (git-diff) → removed (404) → same (still gone) → new (back)', async () => {
    const url = site.url('/lamp');
    const first: any = await fc.scrape(url, { formats: ['markdown', diffFormat] });
    expect(first.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect(first.markdown).toContain('Price: 10 EUR');

    const second: any = await fc.scrape(url, { formats: ['markdown', diffFormat] });
    expect(second.changeTracking.changeStatus).toBe('same');
    expect(second.changeTracking.diff).toBeUndefined();
    const firstAt = Date.parse(second.changeTracking.previousScrapeAt);
    expect(Number.isFinite(firstAt)).toBe(true);

    state.price = '12';
    const third: any = await fc.scrape(url, { formats: ['markdown', diffFormat] });
    expect(third.changeTracking.changeStatus).toBe('changed');
    expect(Date.parse(third.changeTracking.previousScrapeAt)).toBeGreaterThanOrEqual(firstAt);
    const text: string = third.changeTracking.diff.text;
    expect(text).toContain('-Price: 10 EUR\n+Price: 12 EUR\n');
    expect(text).not.toContain('-Colour: Green'); // unchanged lines are context, not changes
    const changes = third.changeTracking.diff.json.files[0].chunks.flatMap((c: any) => c.changes);
    expect(changes.filter((c: any) => c.type === 'del').map((c: any) => c.content)).toEqual(['-Price: 10 EUR']);
    expect(changes.filter((c: any) => c.type === 'add').map((c: any) => c.content)).toEqual(['+Price: 12 EUR']);

    state.gone = true;
    const fourth: any = await fc.scrape(url, { formats: ['markdown', diffFormat] });
    expect(fourth.metadata.statusCode).toBe(404);
    expect(fourth.changeTracking.changeStatus).toBe('removed');
    expect(fourth.changeTracking.diff).toBeUndefined();
    expect((await rows(url))[0]).toMatchObject({ tag: '', gone: true });

    const fifth: any = await fc.scrape(url, { formats: ['markdown', diffFormat] });
    expect(fifth.changeTracking.changeStatus).toBe('same');

    state.gone = false;
    const sixth: any = await fc.scrape(url, { formats: ['markdown', diffFormat] });
    expect(sixth.changeTracking.changeStatus).toBe('new');
    expect(Date.parse(sixth.changeTracking.previousScrapeAt)).toBeGreaterThanOrEqual(Date.parse(fifth.changeTracking.previousScrapeAt));
  });

  test('v1 scrape with changeTrackingOptions', async () => {
    const r = await trawl.post('/v1/scrape', { url: site.url('/lamp'), formats: ['markdown', 'changeTracking'], changeTrackingOptions: { modes: ['git-diff'], tag: 'v1' } }, auth(trawl.adminKey!));
    expect(r.status).toBe(200);
    expect(r.body.data.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect((await rows(site.url('/lamp'))).map((x) => x.tag)).toEqual(['', 'v1']);
  });

  test('the string form works with the SDK: the status only, no diff', async () => {
    const doc: any = await fc.scrape(site.url('/lamp'), { formats: ['markdown', 'changeTracking'] });
    expect(doc.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    expect(doc.changeTracking.diff).toBeUndefined();
  });
});

describe('histories', () => {
  test('separate tags keep separate histories', async () => {
    const url = site.url('/tags');
    const tagged = (tag: string | null) => ['markdown', { type: 'changeTracking', tag }];
    expect((await scrape(url, tagged('daily'))).changeTracking.changeStatus).toBe('new');
    expect((await scrape(url, tagged('weekly'))).changeTracking.changeStatus).toBe('new');
    expect((await scrape(url, tagged(null))).changeTracking.changeStatus).toBe('new');
    expect((await scrape(url, tagged('daily'))).changeTracking.changeStatus).toBe('same');
    expect((await rows(url)).map((r) => r.tag)).toEqual(['', 'daily', 'weekly']);
  });

  test('another team scraping the same URL sees new', async () => {
    const url = site.url('/teams');
    expect((await scrape(url, ['markdown', 'changeTracking'])).changeTracking.changeStatus).toBe('new');
    expect((await scrape(url, ['markdown', 'changeTracking'])).changeTracking.changeStatus).toBe('same');
    const other = await createKey(db(), await createTeam(db(), 'other-team', 1000, 2));
    const doc = await scrape(url, ['markdown', 'changeTracking'], {}, other.key);
    expect(doc.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
  });
});

describe('json mode without a model', () => {
  test('the changed field is reported, with the deterministic path\'s warning', async () => {
    const url = site.url('/json');
    const format = { type: 'changeTracking', modes: ['json', 'git-diff'], schema: { type: 'object', properties: { colour: { type: 'string' }, price: { type: 'string' } } } };
    state.price = '20';
    const first = await scrape(url, ['markdown', format]);
    expect(first.changeTracking.changeStatus).toBe('new');
    expect(first.warning).toMatch(/\[changeTracking json mode\] No language model is configured/);
    expect(first.metadata.creditsUsed).toBe(5); // the page + json mode (+4)
    state.price = '21';
    const second = await scrape(url, ['markdown', format]);
    expect(second.changeTracking.changeStatus).toBe('changed');
    expect(second.changeTracking.json).toEqual({ price: { previous: '20 EUR', current: '21 EUR' } });
    expect(second.changeTracking.diff.text).toContain('+Price: 21 EUR');
    state.price = '12';
  });
});

describe('zero data retention', () => {
  test('compares, keeps nothing, says so', async () => {
    const other = await createKey(db(), await createTeam(db(), 'zdr-team', 1000, 2));
    await db().query('UPDATE teams SET zdr_enabled = true WHERE id = (SELECT team_id FROM api_keys WHERE id = $1)', [other.id]);
    const url = site.url('/zdr');
    const first = await scrape(url, ['markdown', 'changeTracking'], { zeroDataRetention: true }, other.key);
    expect(first.changeTracking.changeStatus).toBe('new');
    expect(first.warning).toMatch(/Zero data retention: this version was compared but not kept/);
    expect(await rows(url)).toEqual([]);
    // a version kept without ZDR is compared against, and stays as it was
    await scrape(url, ['markdown', 'changeTracking'], {}, other.key);
    const kept = (await rows(url))[0]!.scraped_at.getTime();
    const again = await scrape(url, ['markdown', 'changeTracking'], { zeroDataRetention: true }, other.key);
    expect(again.changeTracking.changeStatus).toBe('same');
    expect((await rows(url))[0]!.scraped_at.getTime()).toBe(kept);
  });
});

describe('crawl and batch pages', () => {
  test('a crawl\'s pages carry changeTracking; the second crawl sees the change', async () => {
    const options = { limit: 5, scrapeOptions: { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'crawl' }] }, pollInterval: 1 } as any;
    const first: any = await fc.crawl(site.url('/site/'), options);
    expect(first.status).toBe('completed');
    expect(first.data.length).toBe(2);
    for (const d of first.data) expect(d.changeTracking.changeStatus).toBe('new');
    state.news = 'Opening hours: 10 to 6';
    const second: any = await fc.crawl(site.url('/site/'), options);
    const news = second.data.find((d: any) => String(d.metadata.url).endsWith('/site/news'));
    const index = second.data.find((d: any) => String(d.metadata.url).endsWith('/site/'));
    expect(news.changeTracking.changeStatus).toBe('changed');
    expect(news.changeTracking.diff.text).toContain('-Opening hours: 9 to 5\n+Opening hours: 10 to 6');
    expect(index.changeTracking.changeStatus).toBe('same');
  });

  test('batch scrape pages carry changeTracking', async () => {
    const job: any = await fc.batchScrape([site.url('/teams')], { options: { formats: ['markdown', 'changeTracking'] }, pollInterval: 1 } as any);
    expect(job.data[0].changeTracking.changeStatus).toBe('same');
  });
});

describe('bad input is a 400', () => {
  const bad = async (path: string, body: unknown, message: RegExp) => {
    const r = await trawl.post(path, body, auth(trawl.adminKey!));
    expect([r.status, r.body?.success]).toEqual([400, false]);
    expect(r.body.error).toMatch(message);
  };
  test('unknown mode', () => bad('/v2/scrape', { url: site.url('/lamp'), formats: ['markdown', { type: 'changeTracking', modes: ['word-diff'] }] }, /changeTracking/));
  test('changeTracking in search scrapeOptions', () => bad('/v2/search', { query: 'lamp', scrapeOptions: { formats: ['markdown', 'changeTracking'] } }, /changeTracking" is not available in search scrapeOptions/));
  test('changeTracking without markdown', () => bad('/v2/scrape', { url: site.url('/lamp'), formats: ['changeTracking'] }, /needs "markdown" in formats/));
  test('json mode without schema or prompt', () => bad('/v2/scrape', { url: site.url('/lamp'), formats: ['markdown', { type: 'changeTracking', modes: ['json'] }] }, /needs a "schema" or a "prompt"/));
  test('a tag that is not a string', () => bad('/v2/scrape', { url: site.url('/lamp'), formats: ['markdown', { type: 'changeTracking', tag: 5 }] }, /changeTracking/));
});
