/**
 * Scrape auto-resume (compat.md §4, §21 item 9; issue 25 item 2): a scrape slower than its timeout
 * answers 408 `SCRAPE_TIMEOUT` with `details.state: "processing_continues"` and `Retry-After`, the job
 * keeps running, and the identical repeat joins it: the fixture site is fetched once. Raw HTTP and
 * the official SDK (which re-POSTs by itself after at least 5 s).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { startSite, type Site } from '../scrape-options/site.ts';
import { startOn, type TestTrawl } from '../scrape-options/helpers.ts';
import { jobTimeout } from '../../core/jobs/scrape-resume.ts';

setDefaultTimeout(90_000);

let site: Site;
let trawl: TestTrawl;

beforeAll(async () => {
  site = startSite();
  trawl = await startOn();
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

test('a job gets twice the request timeout, at most 300 s', () => {
  expect(jobTimeout(2000)).toBe(4000);
  expect(jobTimeout(200_000)).toBe(300_000);
  expect(jobTimeout(300_000)).toBe(300_000);
});

test('raw HTTP: 408 processing_continues, then the identical POST joins the running job', async () => {
  // The page answers after 5 s; the request's timeout is 4 s, its job's budget 8 s (3 s to spare on a loaded machine).
  const body = { url: site.url('/slow?ms=5000&resume=raw'), timeout: 4000, maxAge: 0 };
  const first = await trawl.post('/v2/scrape', body);
  expect(first.status).toBe(408);
  expect(first.body).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT', details: { state: 'processing_continues' } });
  expect(first.body.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(first.headers.get('retry-after')).toBe(String(first.body.details.retryAfterSeconds));
  const again = await trawl.post('/v2/scrape', body);
  expect(again.status).toBe(200);
  expect(again.body.data.markdown).toContain('The slow page finally answered.');
  expect(site.count('/slow?ms=5000&resume=raw')).toBe(1);
  // The result was collected: a third identical request is a new scrape.
  const third = await trawl.post('/v2/scrape', body);
  expect(third.status).toBe(408);
  expect(site.count('/slow?ms=5000&resume=raw')).toBe(2);
});

test('a different body does not join', async () => {
  const body = { url: site.url('/slow?ms=5000&resume=other'), timeout: 4000, maxAge: 0 };
  expect((await trawl.post('/v2/scrape', body)).status).toBe(408);
  const other = await trawl.post('/v2/scrape', { ...body, onlyMainContent: false });
  expect(other.status).toBe(408);
  expect(site.count('/slow?ms=5000&resume=other')).toBe(2);
});

test('a job slower than its whole budget ends in a plain 408 for the repeat', async () => {
  const body = { url: site.url('/slow?ms=20000&resume=never'), timeout: 1500, maxAge: 0 };
  const first = await trawl.post('/v2/scrape', body);
  expect(first.body.details?.state).toBe('processing_continues');
  const again = await trawl.post('/v2/scrape', body);
  expect(again.status).toBe(408);
  expect(again.body.code).toBe('SCRAPE_TIMEOUT');
  expect(again.body.details?.state).toBeUndefined();
  expect(site.count('/slow?ms=20000&resume=never')).toBe(1);
});

test('the SDK resumes by itself and gets the document from one fetch', async () => {
  const fc = new Firecrawl({ apiKey: '', apiUrl: trawl.base });
  const doc = await fc.scrape(site.url('/slow?ms=5000&resume=sdk'), { timeout: 4000, maxAge: 0 });
  expect(doc.markdown).toContain('The slow page finally answered.');
  expect(site.count('/slow?ms=5000&resume=sdk')).toBe(1);
});
