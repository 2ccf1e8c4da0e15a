/**
 * The search index feed (core/search/index-feed.ts) on both databases: rows are written once no page
 * arrived for the quiet time, or when the oldest has waited the longest delay although pages keep
 * arriving, or at once when the queue is full (and `add` then waits for the writer); repeated URLs
 * keep the latest row, documents that must not be indexed are skipped, NUL characters do not break a
 * batch, paper pages reach the paper index, flush writes all, and a page queued again unchanged
 * (per-scrape metadata aside) is not written again while a changed one is.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { forEachDatabase, openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { silentLogger } from '../../core/log.ts';
import type { Document } from '../../core/pipeline/scrape.ts';
import { createSearchIndexFeed } from '../../core/search/index-feed.ts';

function doc(url: string, markdown: string, statusCode = 200): Document {
  return { markdown, metadata: { url, sourceURL: url, statusCode, contentType: 'text/html', title: `Title of ${url}` } };
}

forEachDatabase((kind) => {
  let t: TestDatabase;
  const urls = async () => (await t.db.query<{ url: string }>('select url from search_index order by url')).map((r) => r.url);
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  }, 60_000);
  afterAll(async () => t?.close());

  test('rows wait until no page arrived for the quiet time', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 2, quietMs: 300, maxDelayMs: 60_000 });
    await feed.add(doc('http://127.0.0.1:9/a/1', 'one tide'), 'team-a');
    await feed.add(doc('http://127.0.0.1:9/a/2', 'two tides'), 'team-a');
    await feed.add(doc('http://127.0.0.1:9/a/3', 'three tides'), 'team-a');
    expect(feed.pending).toBe(3);
    const added = performance.now();
    await Bun.sleep(100);
    expect(await urls()).toEqual([]);
    while ((await urls()).length < 3 && performance.now() - added < 10_000) await Bun.sleep(20);
    expect(performance.now() - added).toBeGreaterThanOrEqual(300);
    expect(await urls()).toEqual(['http://127.0.0.1:9/a/1', 'http://127.0.0.1:9/a/2', 'http://127.0.0.1:9/a/3']);
    expect(feed.pending).toBe(0);
  });

  test('while pages keep arriving, rows are written once the oldest has waited the longest delay', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 50, quietMs: 120_000, maxDelayMs: 700 });
    const started = performance.now();
    let firstWrittenAfter: number | undefined;
    for (let n = 1; n <= 40; n++) {
      await feed.add(doc(`http://127.0.0.1:9/busy/${n}`, `page ${n}`), 'team-a');
      await Bun.sleep(50);
      if (firstWrittenAfter === undefined && (await urls()).length > 0) firstWrittenAfter = performance.now() - started;
    }
    // The quiet time (120 s) never passes, whatever the machine's load, so only the longest delay can
    // have written the first rows: not before 700 ms, and while pages were still arriving (the loop
    // takes 2 s or more, so undefined here means the delay never fired).
    expect(firstWrittenAfter).toBeDefined();
    expect(firstWrittenAfter).toBeGreaterThanOrEqual(700);
    await feed.flush();
    expect((await urls()).length).toBe(40);
  });

  test('idle writes the rows without waiting for the quiet time', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 2, quietMs: 600_000, maxDelayMs: 600_000 });
    for (let n = 1; n <= 3; n++) await feed.add(doc(`http://127.0.0.1:9/idle/${n}`, `page ${n}`), 'team-a');
    feed.idle();
    const since = performance.now();
    while ((await urls()).length < 3 && performance.now() - since < 20_000) await Bun.sleep(20);
    expect((await urls()).length).toBe(3);
    expect(feed.pending).toBe(0);
  });

  test('a full queue is written without waiting, and add waits for the writer at twice the limit', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 1, quietMs: 60_000, maxDelayMs: 60_000, maxPending: 2 });
    // The second add fills the queue and starts the writer; the fifth finds 4 waiting (twice the
    // limit) and returns only when the writer has brought the queue below the limit.
    for (let n = 1; n <= 4; n++) await feed.add(doc(`http://127.0.0.1:9/full/${n}`, `page ${n}`), 'team-a');
    expect(feed.pending).toBeGreaterThanOrEqual(2);
    await feed.add(doc('http://127.0.0.1:9/full/5', 'page 5'), 'team-a');
    expect(feed.pending).toBeLessThan(2);
    expect((await urls()).length).toBeGreaterThanOrEqual(4);
    await feed.flush();
    expect((await urls()).length).toBe(5);
  });

  test('flush writes all; error pages are skipped; the same URL twice keeps the later row; NUL characters are dropped', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 10, quietMs: 10_000 });
    await feed.add(doc('http://127.0.0.1:9/b/x', 'old words'), 'team-a');
    await feed.add(doc('http://127.0.0.1:9/b/x', 'new words with a \u0000 nul'), 'team-a');
    await feed.add(doc('http://127.0.0.1:9/b/404', 'missing', 404), 'team-a');
    await feed.flush();
    expect(feed.pending).toBe(0);
    const rows = await t.db.query<{ url: string; content: string }>('select url, content from search_index');
    expect(rows.map((r) => r.url)).toEqual(['http://127.0.0.1:9/b/x']);
    expect(rows[0].content).toContain('new words with a  nul');
  });

  test('a page queued again unchanged is not written again; a changed one is; a URL queued twice keeps the later', async () => {
    await t.db.query('delete from search_index');
    const upserts: number[] = [];
    const counting = {
      query: <T>(sql: string, params?: unknown[]) => {
        if (sql.startsWith('INSERT INTO search_index')) upserts.push(JSON.parse(String(params?.[0])).length);
        return t.db.query<T>(sql, params);
      },
    } as typeof t.db;
    const feed = createSearchIndexFeed(counting, silentLogger, { maxBatch: 10, quietMs: 10_000 });
    const page = (n: number, words: string, scrapeId: string) => ({ ...doc(`http://127.0.0.1:9/h/${n}`, words), metadata: { ...doc(`http://127.0.0.1:9/h/${n}`, words).metadata, scrapeId } });
    for (let n = 1; n <= 3; n++) await feed.add(page(n, `page ${n} words`, 'first'), 'team-a');
    await feed.flush();
    expect(upserts).toEqual([3]);
    const written = await t.db.query<{ url: string; source_hash: string | null }>('select url, source_hash from search_index order by url');
    expect(written.every((r) => typeof r.source_hash === 'string')).toBe(true);

    // Same pages from another scrape (new scrape id): nothing to write. Page 2 changed: written.
    for (let n = 1; n <= 3; n++) await feed.add(page(n, n === 2 ? 'page 2 new words' : `page ${n} words`, 'second'), 'team-a');
    await feed.flush();
    expect(upserts).toEqual([3, 1]);
    const content = async (n: number) => (await t.db.query<{ content: string }>('select content from search_index where url = $1', [`http://127.0.0.1:9/h/${n}`]))[0].content;
    expect(await content(2)).toContain('page 2 new words');

    // Page 1 queued twice: changed, then back as stored. The later document wins.
    await feed.add(page(1, 'page 1 other words', 'third'), 'team-a');
    await feed.add(page(1, 'page 1 words', 'fourth'), 'team-a');
    await feed.flush();
    expect(await content(1)).toContain('page 1 words');
    expect(await content(1)).not.toContain('other');
    // The same team's rows under another team are not taken for stored ones.
    await feed.add(page(3, 'page 3 words', 'fifth'), 'team-b');
    await feed.flush();
    expect((await t.db.query('select 1 from search_index where team_id = $1', ['team-b'])).length).toBe(1);
  });

  test('a document whose hash cannot be computed is still written', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 10, quietMs: 10_000 });
    const page = doc('http://127.0.0.1:9/u/1', 'unhashable page words');
    // A value JSON cannot serialise (an in-process document may carry one): sourceHash throws on it.
    (page.metadata as Record<string, unknown>).count = 1n;
    await feed.add(page, 'team-a');
    await feed.add(doc('http://127.0.0.1:9/u/2', 'plain page words'), 'team-a');
    await feed.flush();
    expect(await urls()).toEqual(['http://127.0.0.1:9/u/1', 'http://127.0.0.1:9/u/2']);
    const rows = await t.db.query<{ url: string; source_hash: string | null }>('select url, source_hash from search_index order by url');
    expect(rows.map((r) => r.source_hash === null)).toEqual([true, false]);
  });

  test('a paper page reaches the paper index when its batch is written', async () => {
    const url = 'http://127.0.0.1:9/journal/article/42';
    const paper: Document = {
      markdown: '# Tidal friction\n\nAbstract. We measure the tidal friction of shallow seas over a decade of gauge records and find a slow trend.',
      metadata: { url, sourceURL: url, statusCode: 200, contentType: 'text/html', title: 'Tidal friction', citation_title: 'Tidal friction', citation_doi: '10.1234/tides.42', citation_abstract: 'We measure the tidal friction of shallow seas over a decade of gauge records.' },
    };
    const feed = createSearchIndexFeed(t.db, silentLogger, { quietMs: 10_000 });
    await feed.add(paper, 'team-a');
    const count = async () => (await t.db.query<{ n: number }>(`select count(*)::int as n from papers where primary_id = 'doi:10.1234/tides.42'`))[0].n;
    expect(await count()).toBe(0);
    await feed.flush();
    expect(await count()).toBe(1);
  });
});
