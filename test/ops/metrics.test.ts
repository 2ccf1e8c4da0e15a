/**
 * `/metrics` (issue 24 scope 3): after a crawl of a small fixture site the crawl's pages, engine
 * fetches and HTTP requests appear with the right counts (deltas: counters are per process and other
 * tests in this process may have counted before); TRAWL_METRICS=off answers 404; a token needs Bearer.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { apiOf, startCrawl, waitDone } from '../crawl/helpers.ts';

setDefaultTimeout(120_000);

const page = (title: string, links: string[]) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>Some text about ${title}.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

/** The value of one sample line (`name{labels} value`); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

let site: FixtureSite;
beforeAll(() => {
  site = serveFixtures({
    '/': page('Home', ['/a', '/b']),
    '/a': page('A', ['/', '/c']),
    '/b': page('B', ['/c']),
    '/c': page('C', ['/']),
  });
});
afterAll(() => site.stop());

describe('metrics on (loopback default)', () => {
  let trawl: TestTrawl;
  beforeAll(async () => (trawl = await startTrawl({ TRAWL_AUTH: 'off' })));
  afterAll(() => trawl.stop());

  test('a crawl shows its pages, scrapes and latencies', async () => {
    const before = (await trawl.get('/metrics')).text;
    const api = apiOf(trawl);
    const id = await startCrawl(api, { url: site.url('/'), limit: 10, scrapeOptions: { formats: ['markdown'] } });
    const done = await waitDone(api, `/v2/crawl/${id}`);
    expect(done.status).toBe('completed');
    expect(done.completed).toBe(4);
    const res = await trawl.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const after = res.text;
    const delta = (name: string, labels?: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('trawl_crawl_pages_total', { outcome: 'completed' })).toBe(4);
    expect(delta('trawl_scrapes_total', { engine: 'fetch', outcome: 'success' })).toBe(4);
    expect(delta('trawl_scrape_duration_seconds_count', { engine: 'fetch' })).toBe(4);
    expect(delta('trawl_scrape_duration_seconds_sum', { engine: 'fetch' })).toBeGreaterThan(0);
    // The HTTP requests by route pattern: one start, the status polls (at least one), the first scrape of /metrics.
    expect(delta('trawl_http_requests_total', { method: 'POST', route: '/v2/crawl', status: '200' })).toBe(1);
    expect(delta('trawl_http_requests_total', { method: 'GET', route: '/v2/crawl/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain(`route="/v2/crawl/${id}"`);
    expect(delta('trawl_http_request_duration_seconds_count', { method: 'POST', route: '/v2/crawl' })).toBe(1);
    // The kickoff and the pages ran on the crawl queue (a job may chain several pages).
    expect(delta('trawl_queue_job_duration_seconds_count', { queue: 'crawl', outcome: 'completed' })).toBeGreaterThanOrEqual(2);
    expect(after).toMatch(/trawl_queue_jobs\{queue="crawl",state="waiting"\} 0/);
    expect(delta('trawl_db_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(after).toContain('trawl_nodejs_eventloop_lag_seconds');
    expect(after).toContain('trawl_process_resident_memory_bytes');
    expect(after).toContain('trawl_browser_pool_browsers');
  });

  test('a browser scrape shows the pool and its engine', async () => {
    const before = (await trawl.get('/metrics')).text;
    const res = await trawl.post('/v2/scrape', { url: site.url('/a'), formats: ['markdown', 'screenshot'] });
    expect(res.status).toBe(200);
    const after = (await trawl.get('/metrics')).text;
    expect(sample(after, 'trawl_browser_launches_total') - sample(before, 'trawl_browser_launches_total')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'trawl_browser_pool_browsers')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'trawl_scrapes_total', { engine: 'browser', outcome: 'success' }) - sample(before, 'trawl_scrapes_total', { engine: 'browser', outcome: 'success' })).toBe(1);
  });

  test('unknown paths count as "unmatched", errors with their status', async () => {
    const before = (await trawl.get('/metrics')).text;
    expect((await trawl.get('/no/such/path/123')).status).toBe(404);
    expect((await trawl.post('/v2/scrape', { url: 'not a url' })).status).toBe(400);
    const after = (await trawl.get('/metrics')).text;
    expect(sample(after, 'trawl_http_requests_total', { route: 'unmatched', status: '404' }) - sample(before, 'trawl_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(after, 'trawl_http_requests_total', { route: '/v2/scrape', status: '400' }) - sample(before, 'trawl_http_requests_total', { route: '/v2/scrape', status: '400' })).toBe(1);
    expect(after).not.toContain('/no/such/path');
  });
});

describe('metrics access', () => {
  test('off answers 404', async () => {
    const trawl = await startTrawl({ TRAWL_AUTH: 'off', TRAWL_METRICS: 'off' });
    try {
      expect((await trawl.get('/metrics')).status).toBe(404);
    } finally {
      await trawl.stop();
    }
  });

  test('a token is required as Bearer', async () => {
    const token = 'metrics-token-0123456789';
    const trawl = await startTrawl({ TRAWL_AUTH: 'off', TRAWL_METRICS: token });
    try {
      const none = await trawl.get('/metrics');
      expect(none.status).toBe(401);
      expect(none.body.error).toContain('TRAWL_METRICS');
      expect((await trawl.get('/metrics', { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
      const ok = await trawl.get('/metrics', { authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('trawl_http_requests_total');
    } finally {
      await trawl.stop();
    }
  });

  test('a short token is a configuration error', async () => {
    await expect(startTrawl({ TRAWL_METRICS: 'short' })).rejects.toThrow(/TRAWL_METRICS/);
  });
});
