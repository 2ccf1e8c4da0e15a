/**
 * Rate limits and the team concurrency limit through the HTTP API (compat.md §18.2): 429 with
 * `Retry-After` per key, per team and per endpoint group, per IP for keyless callers, a separate
 * bucket for status reads; a single scrape waits for a concurrency slot and gets 408
 * CONCURRENCY_QUEUE_TIMEOUT when its budget runs out; queue-status and concurrency-check report it.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from './helpers.ts';

setDefaultTimeout(60_000);

const PAGE = '<html><head><title>Tide</title></head><body><main><p>High water at noon.</p></main></body></html>';

let site: FixtureSite;
let trawl: AccountsTrawl;
let inFlight = 0;
let peak = 0;

beforeAll(async () => {
  site = serveFixtures({
    '/page': PAGE,
    '/slow': async (_req, url) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await Bun.sleep(Number(url.searchParams.get('ms') ?? 2000));
      inFlight--;
      return new Response(PAGE, { headers: { 'content-type': 'text/html' } });
    },
  });
  trawl = await startAccountsTrawl({
    TRAWL_RATE_LIMIT_PER_MINUTE: '5',
    TRAWL_KEY_RATE_LIMIT_PER_MINUTE: '3',
    TRAWL_KEYLESS_RATE_LIMIT_PER_MINUTE: '2',
    TRAWL_STATUS_RATE_LIMIT_PER_MINUTE: '8',
  });
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

function expectRateLimited(res: { status: number; body: any; headers: Headers }, ...mentions: string[]) {
  expect(res.status).toBe(429);
  expect(res.body.success).toBe(false);
  expect(typeof res.body.error).toBe('string');
  for (const m of mentions) expect(res.body.error).toContain(m);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('429', () => {
  test('per key: the 4th scrape in a minute is refused; other groups are separate buckets', async () => {
    const { key } = await trawl.key();
    for (let i = 0; i < 3; i++) expect((await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(key))).status).toBe(200);
    expectRateLimited(await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(key)), 'at most 3 requests per minute', 'this API key');
    expectRateLimited(await trawl.post('/v1/scrape', { url: site.url('/page') }, trawl.auth(key)), 'this API key');
    // Status reads and account endpoints use their own buckets.
    expect((await trawl.get('/v2/concurrency-check', trawl.auth(key))).status).toBe(200);
  });

  test('per team: keys of one team share the team bucket', async () => {
    const a = await trawl.key();
    const b = await trawl.key({ team: a.team });
    for (let i = 0; i < 3; i++) expect((await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(a.key))).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(b.key))).status).toBe(200);
    expectRateLimited(await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(b.key)), 'at most 5 requests per minute', 'this team');
    // Another team is unaffected.
    const c = await trawl.key();
    expect((await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(c.key))).status).toBe(200);
  });

  test('status reads have their own, larger bucket', async () => {
    const { key } = await trawl.key();
    for (let i = 0; i < 8; i++) expect((await trawl.get('/v2/team/credit-usage', trawl.auth(key))).status).toBe(200);
    expectRateLimited(await trawl.get('/v2/team/credit-usage', trawl.auth(key)), 'at most 8 requests per minute');
  });

  test('keyless: per IP, at the lower keyless limit', async () => {
    for (let i = 0; i < 2; i++) expect((await trawl.post('/v2/scrape', { url: site.url('/page') })).status).toBe(200);
    expectRateLimited(await trawl.post('/v2/scrape', { url: site.url('/page') }), 'at most 2 requests per minute', 'keyless');
    // A keyed caller from the same address is not affected.
    const { key } = await trawl.key();
    expect((await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(key))).status).toBe(200);
  });
});

describe('team concurrency', () => {
  test('a scrape waits for a slot, or gets 408 CONCURRENCY_QUEUE_TIMEOUT when its budget runs out', async () => {
    const { key } = await trawl.key({ concurrency: 1 });
    peak = 0;
    const slow = trawl.post('/v2/scrape', { url: site.url('/slow?ms=2500'), timeout: 20000 }, trawl.auth(key));
    await Bun.sleep(400);
    const check = await trawl.get('/v2/concurrency-check', trawl.auth(key));
    expect(check.body).toEqual({ success: true, concurrency: 1, maxConcurrency: 1 });

    const waiting = trawl.post('/v2/scrape', { url: site.url('/slow?ms=100'), timeout: 20000 }, trawl.auth(key));
    await Bun.sleep(300);
    const queue = await trawl.get('/v2/team/queue-status', trawl.auth(key));
    expect(queue.body).toMatchObject({ success: true, jobsInQueue: 2, activeJobsInQueue: 1, waitingJobsInQueue: 1, maxConcurrency: 1 });

    const timedOut = await trawl.post('/v2/scrape', { url: site.url('/slow?ms=100'), timeout: 1500 }, trawl.auth(key));
    expect(timedOut.status).toBe(408);
    expect(timedOut.body).toMatchObject({ success: false, code: 'CONCURRENCY_QUEUE_TIMEOUT' });
    expect(timedOut.body.error).toContain('concurrency limit (1');

    const first = await slow;
    expect(first.status).toBe(200);
    expect(first.body.data.metadata.concurrencyLimited).toBeUndefined();
    const second = await waiting;
    expect(second.status).toBe(200);
    expect(second.body.data.metadata.concurrencyLimited).toBe(true);
    expect(second.body.data.metadata.concurrencyQueueDurationMs).toBeGreaterThan(1000);
    expect(peak).toBe(1);
    const after = await trawl.get('/v2/team/queue-status', trawl.auth(key));
    expect(after.body).toMatchObject({ jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0 });
    expect(Date.parse(after.body.mostRecentSuccess)).toBeGreaterThan(Date.now() - 60_000);
  });

  test('the limit holds for many scrapes at once', async () => {
    const { key } = await trawl.key({ concurrency: 2 });
    const other = await trawl.key({ concurrency: 2 });
    peak = 0;
    const results = await Promise.all([
      ...Array.from({ length: 3 }, () => trawl.post('/v2/scrape', { url: site.url('/slow?ms=400'), timeout: 20000 }, trawl.auth(key))),
      ...Array.from({ length: 3 }, () => trawl.post('/v2/scrape', { url: site.url('/slow?ms=400'), timeout: 20000 }, trawl.auth(other.key))),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(peak).toBe(4); // 2 per team, two teams
  });
});
