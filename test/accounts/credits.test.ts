/**
 * Credits through the HTTP API (interface.md "Limits", Errors 402; compat.md §18.1): 402 before work
 * starts when the balance cannot cover the request (crawl: limit; batch: urls.length; else 1), one
 * charge per successful page recorded in the ledger against the key, no charge for failed work, and
 * the usage endpoints following the balance.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from './helpers.ts';
import { searchCredits } from '../../core/credits/costs.ts';
import { makePdf } from '../parsers/make-pdf.ts';

setDefaultTimeout(60_000);

const page = (title: string, links = '') =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Text about ${title}.</p>${links}</main></body></html>`;

let site: FixtureSite;
let trawl: AccountsTrawl;

beforeAll(async () => {
  site = serveFixtures({
    '/a': page('A', '<a href="/b">b</a> <a href="/c">c</a>'),
    '/b': page('B'),
    '/c': page('C'),
    '/gone': { body: page('Gone'), status: 404 },
    '/three-pages.pdf': {
      body: makePdf(['one', 'two', 'three'].map((n) => ({ items: [{ x: 72, y: 100, size: 14, text: `Page ${n} of the report, with a sentence of text.` }] }))),
      headers: { 'content-type': 'application/pdf' },
    },
  });
  trawl = await startAccountsTrawl();
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

function expectPaymentRequired(res: { status: number; body: any }, need: number, have: number) {
  expect(res.status).toBe(402);
  expect(res.body.success).toBe(false);
  expect(res.body.error).toContain(`needs ${need} credit`);
  expect(res.body.error).toContain(`has ${have} remaining`);
}

describe('402 before work starts', () => {
  test('scrape with an empty balance', async () => {
    const { key, team } = await trawl.key({ credits: 0 });
    const before = site.hits.length;
    expectPaymentRequired(await trawl.post('/v2/scrape', { url: site.url('/a') }, trawl.auth(key)), 1, 0);
    expectPaymentRequired(await trawl.post('/v1/scrape', { url: site.url('/a') }, trawl.auth(key)), 1, 0);
    expect(site.hits.length).toBe(before); // the target was never contacted
    // Account endpoints still answer.
    const usage = await trawl.get('/v2/team/credit-usage', trawl.auth(key));
    expect(usage.status).toBe(200);
    expect(usage.body.data.remainingCredits).toBe(0);
    expect(await trawl.credits(team)).toBe(0);
  });

  test('crawl whose limit exceeds the balance', async () => {
    const { key } = await trawl.key({ credits: 10 });
    expectPaymentRequired(await trawl.post('/v2/crawl', { url: site.url('/a'), limit: 50 }, trawl.auth(key)), 50, 10);
    expectPaymentRequired(await trawl.post('/v2/crawl', { url: site.url('/a') }, trawl.auth(key)), 10000, 10); // default limit
  });

  test('batch whose URL count exceeds the balance', async () => {
    const { key } = await trawl.key({ credits: 2 });
    expectPaymentRequired(await trawl.post('/v2/batch/scrape', { urls: [site.url('/a'), site.url('/b'), site.url('/c')] }, trawl.auth(key)), 3, 2);
  });

  test('search with an empty balance', async () => {
    const { key } = await trawl.key({ credits: 0 });
    expectPaymentRequired(await trawl.post('/v2/search', { query: 'anything' }, trawl.auth(key)), 1, 0);
  });
});

describe('charges', () => {
  test('a scrape costs 1 credit, recorded once against the key', async () => {
    const { key, id, team } = await trawl.key({ credits: 100 });
    const res = await trawl.post('/v2/scrape', { url: site.url('/a') }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.creditsUsed).toBe(1);
    expect(await trawl.credits(team)).toBe(99);
    const rows = await trawl.running.services.db.query<Record<string, any>>('select * from credit_ledger where team_id = $1', [team]);
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ api_key_id: id, kind: 'scrape', ref_id: res.body.data.metadata.scrapeId, delta: -1 });
    // Reading the stored scrape again costs nothing.
    expect((await trawl.get(`/v2/scrape/${res.body.data.metadata.scrapeId}`, trawl.auth(key))).status).toBe(200);
    expect(await trawl.credits(team)).toBe(99);
    const usage = await trawl.get('/v2/team/credit-usage', trawl.auth(key));
    expect(usage.body.data).toMatchObject({ remainingCredits: 99, planCredits: 100 });
  });

  test('a page the target answered with 404 is a successful scrape and is charged', async () => {
    const { key, team } = await trawl.key({ credits: 5 });
    const res = await trawl.post('/v2/scrape', { url: site.url('/gone') }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.statusCode).toBe(404);
    expect(await trawl.credits(team)).toBe(4);
  });

  test('failed work costs nothing', async () => {
    const { key, team } = await trawl.key({ credits: 5 });
    const dead = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
    const url = `http://127.0.0.1:${dead.port}/x`;
    dead.stop(true);
    const res = await trawl.post('/v2/scrape', { url, timeout: 5000 }, trawl.auth(key));
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(await trawl.credits(team)).toBe(5);
    const bad = await trawl.post('/v2/scrape', { url: 'ftp://site.example/x' }, trawl.auth(key));
    expect(bad.status).toBe(400);
    expect(await trawl.credits(team)).toBe(5);
  });

  test('keyless scrapes are charged to the keyless team, not to a keyed team', async () => {
    const { team } = await trawl.key({ credits: 5 });
    expect((await trawl.post('/v2/scrape', { url: site.url('/b') })).status).toBe(200);
    expect(await trawl.credits(team)).toBe(5);
  });

  test('a crawl costs 1 credit per page crawled', async () => {
    const { key, team } = await trawl.key({ credits: 20 });
    const started = await trawl.post('/v2/crawl', { url: site.url('/a'), limit: 5, crawlEntireDomain: true }, trawl.auth(key));
    expect(started.status).toBe(200);
    let status: any;
    for (let i = 0; i < 100; i++) {
      status = (await trawl.get(`/v2/crawl/${started.body.id}`, trawl.auth(key))).body;
      if (status.status !== 'scraping') break;
      await Bun.sleep(100);
    }
    expect(status.status).toBe('completed');
    expect(status.completed).toBe(3);
    expect(status.creditsUsed).toBe(3);
    expect(await trawl.credits(team)).toBe(17);
  });

  test('a batch costs 1 credit per page', async () => {
    const { key, team } = await trawl.key({ credits: 20 });
    const started = await trawl.post('/v2/batch/scrape', { urls: [site.url('/a'), site.url('/b')] }, trawl.auth(key));
    expect(started.status).toBe(200);
    let status: any;
    for (let i = 0; i < 100; i++) {
      status = (await trawl.get(`/v2/batch/scrape/${started.body.id}`, trawl.auth(key))).body;
      if (status.status !== 'scraping') break;
      await Bun.sleep(100);
    }
    expect(status.status).toBe('completed');
    expect(await trawl.credits(team)).toBe(18);
  });

  test('a search costs 2 credits per 10 results; the first feedback refunds 1', async () => {
    const { key, team } = await trawl.key({ credits: 50 });
    for (const p of ['/a', '/b', '/c']) expect((await trawl.post('/v2/scrape', { url: site.url(p) }, trawl.auth(key))).status).toBe(200);
    expect(await trawl.credits(team)).toBe(47);
    const res = await trawl.post('/v2/search', { query: 'Text about', limit: 10 }, trawl.auth(key));
    expect(res.status).toBe(200);
    const n = res.body.data.web.length;
    expect(n).toBeGreaterThan(0);
    expect(res.body.creditsUsed).toBe(searchCredits(n));
    expect(await trawl.credits(team)).toBe(47 - searchCredits(n));
    const fb = await trawl.post(`/v2/search/${res.body.id}/feedback`, { rating: 'good' }, trawl.auth(key));
    expect(fb.status).toBe(200);
    expect(fb.body.creditsRefunded).toBe(1);
    expect(await trawl.credits(team)).toBe(48 - searchCredits(n));
    const again = await trawl.post(`/v2/search/${res.body.id}/feedback`, { rating: 'bad' }, trawl.auth(key));
    expect(again.body.creditsRefunded).toBe(0);
    expect(await trawl.credits(team)).toBe(48 - searchCredits(n));
  });

  test('a parsed PDF costs 1 credit per page; parsers: [] costs 1 flat', async () => {
    const { key, team } = await trawl.key({ credits: 20 });
    const parsed = await trawl.post('/v2/scrape', { url: site.url('/three-pages.pdf') }, trawl.auth(key));
    expect(parsed.status).toBe(200);
    expect(parsed.body.data.markdown).toContain('Page two of the report');
    expect(parsed.body.data.metadata.creditsUsed).toBe(3);
    expect(await trawl.credits(team)).toBe(17);
    const raw = await trawl.post('/v2/scrape', { url: site.url('/three-pages.pdf'), parsers: [] }, trawl.auth(key));
    expect(raw.status).toBe(200);
    expect(raw.body.data.markdown ?? '').not.toContain('Page two');
    expect(raw.body.data.metadata.creditsUsed).toBe(1);
    expect(await trawl.credits(team)).toBe(16);
  });

  test('JSON mode adds 4 credits per page (no model: the deterministic path, same price)', async () => {
    const { key, team } = await trawl.key({ credits: 20 });
    const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['markdown', { type: 'json', prompt: 'the title' }], maxAge: 0 }, trawl.auth(key));
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.creditsUsed).toBe(5);
    expect(await trawl.credits(team)).toBe(15);
  });

  test('lockdown costs 5 credits on a cache hit and 1 on a miss', async () => {
    const { key, team } = await trawl.key({ credits: 20 });
    const miss = await trawl.post('/v2/scrape', { url: site.url('/b?lockdown-miss'), lockdown: true }, trawl.auth(key));
    expect(miss.status).toBe(404);
    expect(miss.body.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
    expect(await trawl.credits(team)).toBe(19);
    expect((await trawl.post('/v2/scrape', { url: site.url('/b?lockdown-hit') }, trawl.auth(key))).status).toBe(200);
    expect(await trawl.credits(team)).toBe(18);
    const hit = await trawl.post('/v2/scrape', { url: site.url('/b?lockdown-hit'), lockdown: true }, trawl.auth(key));
    expect(hit.status).toBe(200);
    expect(hit.body.data.metadata.cacheState).toBe('hit');
    expect(hit.body.data.metadata.creditsUsed).toBe(5);
    expect(await trawl.credits(team)).toBe(13);
  });

  test('credit history by key', async () => {
    const { key, team } = await trawl.key({ credits: 50 });
    const second = await trawl.key({ team });
    await trawl.post('/v2/scrape', { url: site.url('/a') }, trawl.auth(key));
    await trawl.post('/v2/scrape', { url: site.url('/b') }, trawl.auth(second.key));
    await trawl.post('/v2/scrape', { url: site.url('/c') }, trawl.auth(second.key));
    const all = await trawl.get('/v2/team/credit-usage/historical', trawl.auth(key));
    expect(all.status).toBe(200);
    expect(all.body.periods[0]).toMatchObject({ apiKey: null, totalCredits: 3, creditsUsed: 3 });
    const byKey = await trawl.get('/v2/team/credit-usage/historical?byApiKey=true', trawl.auth(key));
    const current = byKey.body.periods.filter((p: any) => p.startDate === all.body.periods[0].startDate);
    expect(current.map((p: any) => [p.apiKey, p.creditsUsed]).sort()).toEqual([[`${key.slice(0, 8)}...`, 1], [`${second.key.slice(0, 8)}...`, 2]].sort());
  });
});
