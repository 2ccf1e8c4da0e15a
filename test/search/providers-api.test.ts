/**
 * POST /v2/search with configured HTTP providers (the Brave and Serper fakes of test/fakes): fallback
 * in the configured order down to the local index, 503 when none works, 408 on the search timeout,
 * tbs for web only, and the research category before the switch date (web results narrowed to
 * academic sites, labelled, with a `warnings` entry).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startFakeBrave, BRAVE_KEY } from '../fakes/brave.ts';
import { startFakeSerper, SERPER_KEY } from '../fakes/serper.ts';
import type { Fake } from '../fakes/server.ts';

let brave: Fake;
let serper: Fake;
let chained: TestTrawl; // brave, serper, local; research switch still ahead
let braveOnly: TestTrawl;

beforeAll(async () => {
  brave = startFakeBrave();
  serper = startFakeSerper();
  const providers = { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: `${brave.origin}/res/v1`, SERPER_API_KEY: SERPER_KEY, SERPER_API_URL: serper.origin };
  chained = await startTrawl({ TRAWL_AUTH: 'off', ...providers, TRAWL_SEARCH_PROVIDERS: 'brave,serper,local', TRAWL_RESEARCH_SWITCH_DATE: '2099-01-01', TRAWL_FEEDBACK_DAILY_REFUND_CAP: '1' });
  braveOnly = await startTrawl({ TRAWL_AUTH: 'off', ...providers, TRAWL_SEARCH_PROVIDERS: 'brave' });
}, 120_000);

afterAll(async () => {
  await chained?.stop();
  await braveOnly?.stop();
  brave?.stop();
  serper?.stop();
});

beforeEach(() => {
  for (const f of [brave, serper]) {
    f.mode = 'ok';
    f.requests.length = 0;
  }
});

describe('provider order and fallback', () => {
  test('the first provider answers', async () => {
    const res = await chained.post('/v2/search', { query: 'tide tables', limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.data.web[0]).toEqual({ url: 'https://coast.example/tides', title: 'Tide tables of the North Sea', description: expect.any(String), position: 1 });
    expect(brave.requests).toHaveLength(1);
    expect(serper.requests).toHaveLength(0);
  });

  test('a failing provider hands over to the next', async () => {
    brave.mode = 'rate-limited';
    const res = await chained.post('/v2/search', { query: 'tides', limit: 5 });
    expect(res.status).toBe(200);
    expect(serper.requests).toHaveLength(1);
    expect(res.body.data.web.map((w: any) => w.url)).toContain('https://sailing.example/learn/tides');
  });

  test('down to the local index when every remote provider fails', async () => {
    brave.mode = 'unauthorized';
    serper.mode = 'server-error';
    const res = await chained.post('/v2/search', { query: 'tides' });
    expect(res.status).toBe(200);
    expect(res.body.data.web).toEqual([]); // the local index of this instance is empty
    expect(res.body.warning).toBe('No search results found');
  });

  test('503 naming the failure when the only provider fails', async () => {
    brave.mode = 'unauthorized';
    const res = await braveOnly.post('/v2/search', { query: 'tides' });
    expect(res.status).toBe(503);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain('[brave] HTTP 401: SUBSCRIPTION_TOKEN_INVALID');
  });

  test('408 SCRAPE_TIMEOUT when providers do not answer within the timeout', async () => {
    brave.mode = 'slow';
    brave.slowMs = 30_000;
    const started = Date.now();
    const res = await braveOnly.post('/v2/search', { query: 'tides', timeout: 800 });
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT', error: expect.stringContaining('800 ms') });
    expect(Date.now() - started).toBeLessThan(20_000); // far below the provider's 30 s: a hang bound only
  });

  test('tbs applies to web only; news goes out without it', async () => {
    const res = await chained.post('/v2/search', { query: 'tide', sources: ['web', 'news'], tbs: 'qdr:d' });
    expect(res.status).toBe(200);
    const web = brave.requests.find((r) => r.path.endsWith('/web/search'))!;
    const news = brave.requests.find((r) => r.path.endsWith('/news/search'))!;
    expect(web.query.get('freshness')).toBe('pd');
    expect(news.query.has('freshness')).toBe(false);
    expect(Object.keys(res.body.data).sort()).toEqual(['news', 'web']);
  });

  test('includeDomains reach the provider as site: operators', async () => {
    await chained.post('/v2/search', { query: 'tide', includeDomains: ['coast.example', 'sailing.example'] });
    expect(brave.requests[0].query.get('q')).toBe('tide (site:coast.example OR site:sailing.example)');
  });
});

describe('research category before the switch date', () => {
  test('web results are narrowed to academic sites, labelled, and a warning announces the change', async () => {
    const res = await chained.post('/v2/search', { query: 'tidal', categories: ['research'] });
    expect(res.status).toBe(200);
    expect(brave.requests[0].query.get('q')).toContain('site:arxiv.org');
    expect(res.body.data).toEqual({ web: [{ url: 'https://arxiv.org/abs/2401.01234', title: 'Tidal energy research', description: expect.any(String), position: 1, category: 'research' }] });
    expect(res.body.warnings).toEqual([expect.stringContaining('2099-01-01')]);
  });

  test('github category labels results', async () => {
    const res = await chained.post('/v2/search', { query: 'tide', categories: ['github'] });
    expect(res.body.data.web).toEqual([expect.objectContaining({ url: 'https://github.com/example/tide-gauge', category: 'github', position: 1 })]);
  });
});

describe('feedback refunds within the daily cap', () => {
  test('one refund per day with a cap of 1; a free search refunds nothing', async () => {
    const a = await chained.post('/v2/search', { query: 'tide' });
    const b = await chained.post('/v2/search', { query: 'tides' });
    expect([a.body.creditsUsed, b.body.creditsUsed]).toEqual([2, 2]);
    const first = await chained.post(`/v2/search/${a.body.id}/feedback`, { rating: 'good' });
    expect(first.body).toMatchObject({ success: true, creditsRefunded: 1, creditsRefundedToday: 1, dailyRefundCap: 1 });
    const capped = await chained.post(`/v2/search/${b.body.id}/feedback`, { rating: 'good' });
    expect(capped.body).toMatchObject({ success: true, creditsRefunded: 0, dailyCapReached: true, warning: expect.stringContaining('daily refund cap') });
    brave.mode = 'unauthorized';
    serper.mode = 'unauthorized';
    const free = await chained.post('/v2/search', { query: 'nothing here' });
    expect(free.body.creditsUsed).toBe(0);
    const none = await chained.post(`/v2/search/${free.body.id}/feedback`, { rating: 'bad' });
    expect(none.body).toMatchObject({ success: true, creditsRefunded: 0, warning: expect.stringContaining('cost no credits') });
  });
});
