/**
 * The team endpoints (compat.md §16) with their exact shapes, and the official SDK (firecrawl@4.42.0)
 * usage methods run unchanged against them: getCreditUsage, getTokenUsage, getConcurrency,
 * getQueueStatus, the historical variants, and the v1 client's usage calls.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import Firecrawl from 'firecrawl';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from './helpers.ts';

setDefaultTimeout(60_000);

let site: FixtureSite;
let trawl: AccountsTrawl;
let key: string;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeAll(async () => {
  site = serveFixtures({ '/page': '<html><head><title>Reef</title></head><body><p>Coral grows slowly.</p></body></html>' });
  trawl = await startAccountsTrawl();
  key = (await trawl.key({ credits: 500, concurrency: 7 })).key;
  expect((await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(key))).status).toBe(200);
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

describe('shapes', () => {
  test('credit-usage and token-usage', async () => {
    const credits = await trawl.get('/v2/team/credit-usage', trawl.auth(key));
    expect(credits.status).toBe(200);
    expect(Object.keys(credits.body)).toEqual(['success', 'data']);
    expect(Object.keys(credits.body.data).sort()).toEqual(['billingPeriodEnd', 'billingPeriodStart', 'planCredits', 'remainingCredits']);
    expect(credits.body.data.remainingCredits).toBe(499);
    expect(credits.body.data.planCredits).toBe(500);
    expect(credits.body.data.billingPeriodStart).toMatch(ISO);
    expect(credits.body.data.billingPeriodEnd).toMatch(ISO);
    const tokens = await trawl.get('/v2/team/token-usage', trawl.auth(key));
    expect(Object.keys(tokens.body.data).sort()).toEqual(['billingPeriodEnd', 'billingPeriodStart', 'planTokens', 'remainingTokens']);
    for (const v of [tokens.body.data.remainingTokens, tokens.body.data.planTokens]) {
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThan(1_000_000);
    }
  });

  test('historical usage', async () => {
    const res = await trawl.get('/v2/team/credit-usage/historical', trawl.auth(key));
    expect(res.body.success).toBe(true);
    expect(res.body.periods[0]).toEqual({
      startDate: expect.stringMatching(ISO), endDate: expect.stringMatching(ISO), apiKey: null, totalCredits: 1, creditsUsed: 1,
    });
    const tokens = await trawl.get('/v2/team/token-usage/historical?byApiKey=true', trawl.auth(key));
    expect(tokens.body.periods[0]).toMatchObject({ totalTokens: 0, tokensUsed: 0 });
  });

  test('queue-status and concurrency-check', async () => {
    const q = await trawl.get('/v2/team/queue-status', trawl.auth(key));
    expect(q.body).toEqual({
      success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 7, mostRecentSuccess: expect.stringMatching(ISO),
    });
    const c = await trawl.get('/v2/concurrency-check', trawl.auth(key));
    expect(c.body).toEqual({ success: true, concurrency: 0, maxConcurrency: 7 });
  });

  test('a new team has no null numbers', async () => {
    const fresh = (await trawl.key({ credits: 0 })).key;
    const credits = await trawl.get('/v2/team/credit-usage', trawl.auth(fresh));
    expect(credits.body.data.remainingCredits).toBe(0);
    expect(credits.body.data.planCredits).toBe(0);
    const q = await trawl.get('/v2/team/queue-status', trawl.auth(fresh));
    expect(q.body.mostRecentSuccess).toBeNull();
    const hist = await trawl.get('/v2/team/credit-usage/historical', trawl.auth(fresh));
    expect(hist.body.periods).toEqual([expect.objectContaining({ totalCredits: 0, creditsUsed: 0 })]);
  });
});

describe('official SDK firecrawl@4.42.0', () => {
  test('v2 usage methods', async () => {
    const app = new Firecrawl({ apiKey: key, apiUrl: trawl.base });
    expect(await app.getCreditUsage()).toEqual({
      remainingCredits: 499, planCredits: 500, billingPeriodStart: expect.stringMatching(ISO), billingPeriodEnd: expect.stringMatching(ISO),
    });
    const tokens = await app.getTokenUsage();
    expect(tokens.remainingTokens).toBeGreaterThan(0);
    expect(tokens.planTokens).toBeGreaterThan(0);
    expect(await app.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 7 });
    const queue = await app.getQueueStatus();
    expect(queue).toMatchObject({ success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 7 });
    const hist = await app.getCreditUsageHistorical(true);
    expect(hist.success).toBe(true);
    expect(hist.periods[0]).toMatchObject({ apiKey: `${key.slice(0, 8)}...`, creditsUsed: 1 });
    const tokenHist = await app.getTokenUsageHistorical();
    expect(tokenHist.success).toBe(true);
  });

  test('v1 client usage methods', async () => {
    const app = new Firecrawl({ apiKey: key, apiUrl: trawl.base });
    const credits: any = await app.v1.getCreditUsage();
    expect(credits).toMatchObject({ success: true, data: { remainingCredits: 499 } });
    const queue: any = await app.v1.getQueueStatus();
    expect(queue).toMatchObject({ success: true, maxConcurrency: 7 });
    expect(((await app.v1.getTokenUsage()) as any).success).toBe(true);
  });

  test('a bad key is an SDK error with status 401', async () => {
    const app = new Firecrawl({ apiKey: 'fc-00000000000000000000000000000000', apiUrl: trawl.base });
    const err: any = await app.getCreditUsage().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message)).toContain('Unauthorized');
    expect(err.status ?? err.statusCode).toBe(401);
  });
});
