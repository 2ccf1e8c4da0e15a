/**
 * The batched search index feed (core/search/index-feed.ts) on both databases: rows arrive within
 * the delay, a full batch is written without waiting, repeated URLs keep the latest row, documents
 * that must not be indexed are skipped, NUL characters do not break a batch, and flush writes all.
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

  test('rows wait for the delay or a full batch; flush writes the rest', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 3, maxDelayMs: 300 });
    await feed.add(doc('https://a.example/1', 'one tide'));
    expect(feed.pending).toBe(1);
    expect(await urls()).toEqual([]);
    await Bun.sleep(600);
    expect(await urls()).toEqual(['https://a.example/1']);

    for (const n of [2, 3, 4]) await feed.add(doc(`https://a.example/${n}`, `page ${n}`));
    await Bun.sleep(50); // a full batch goes at once, well before the delay
    expect(await urls()).toEqual(['https://a.example/1', 'https://a.example/2', 'https://a.example/3', 'https://a.example/4']);

    await feed.add(doc('https://a.example/5', 'five'));
    await feed.add(doc('https://a.example/404', 'missing', 404)); // error pages are not indexed
    await feed.flush();
    expect(feed.pending).toBe(0);
    expect(await urls()).toContain('https://a.example/5');
    expect(await urls()).not.toContain('https://a.example/404');
  });

  test('the same URL twice in one batch keeps the later row; NUL characters are dropped', async () => {
    await t.db.query('delete from search_index');
    const feed = createSearchIndexFeed(t.db, silentLogger, { maxBatch: 10, maxDelayMs: 10_000 });
    await feed.add(doc('https://b.example/x', 'old words'));
    await feed.add(doc('https://b.example/x', 'new words with a \u0000 nul'));
    await feed.flush();
    const rows = await t.db.query<{ content: string }>('select content from search_index');
    expect(rows.length).toBe(1);
    expect(rows[0].content).toContain('new words with a  nul');
  });
});
