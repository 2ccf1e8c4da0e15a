/**
 * The real 1,169-page postgresql-doc-15 manual, crawled completely by the embedded default (one
 * process, PGlite, in-process queue, one content thread): every page exactly once in the results
 * and on the wire, `completed` equal to the number of pages. Prints pages per second.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { pgDocsInstalled, servePgDocs, type PgDocsSite } from '../fixtures/crawl-site/pg-docs.ts';
import { apiOf, expectWholeManual, startCrawl, waitDone } from './helpers.ts';

let trawl: TestTrawl;
let site: PgDocsSite;

beforeAll(async () => {
  if (!pgDocsInstalled) return;
  site = servePgDocs();
  // One content thread: the whole manual is also built off the main thread (the distributed test
  // keeps the default, none on a 2-core machine, so both paths crawl it).
  trawl = await startTrawl({ TRAWL_AUTH: 'off', TRAWL_CONTENT_THREADS: '1' });
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

describe.skipIf(!pgDocsInstalled)('postgresql-doc-15, embedded', () => {
  test('crawls all 1,169 pages, each fetched and returned once', async () => {
    const api = apiOf(trawl);
    const started = Date.now();
    const id = await startCrawl(api, { url: `${site.origin}/index.html`, limit: 5000 });
    await waitDone(api, `/v2/crawl/${id}`, 600_000);
    const seconds = (Date.now() - started) / 1000;
    await expectWholeManual(api, id, site);
    for (const p of site.pages) expect(site.hits.get(`/${p}`)).toBe(1);
    process.stdout.write(`[pg-docs embedded] ${site.pages.length} pages in ${seconds.toFixed(1)} s = ${(site.pages.length / seconds).toFixed(1)} pages/s\n`);
  }, 600_000);
});
