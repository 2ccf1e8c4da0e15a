/**
 * The memory cache in front of `scrape_cache` (core/cache/memory.ts; embedded database only): a
 * stored document is then a hit with no statement; maxAge and minAge are honoured (an entry too old
 * or too young goes to the table, which decides); an expired entry is not served; a store being
 * written drops the held version until it commits; with Postgres (other writers) there is no memory
 * cache; the byte cap evicts the least recently used entries.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Queryable } from '../../core/db/client.ts';
import { silentLogger } from '../../core/log.ts';
import { Registry } from '../../core/registry.ts';
import { formatPlugins } from '../../core/pipeline/scrape.ts';
import { resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';
import { answeredByCache, createScrapeCache } from '../../core/cache/index.ts';
import { MemoryCache, memoryCacheOf } from '../../core/cache/memory.ts';
import type { Document } from '../../core/scrape/document.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
let formats: Awaited<ReturnType<typeof formatPlugins>>;
beforeAll(async () => {
  t = await openTestDatabase('pglite');
  formats = await formatPlugins(new Registry());
});
afterAll(async () => t?.close());

/** The test database, counting statements, seen as the embedded database. */
function counted(kind: 'pglite' | 'postgres' = 'pglite') {
  const db = { kind, statements: 0, query: <T>(sql: string, params?: unknown[]) => (db.statements++, t.db.query<T>(sql, params)) };
  return db as Queryable & { kind: string; statements: number };
}

const request = (url: string, extra: Record<string, unknown> = {}) => ({
  scrapeId: crypto.randomUUID(), url, sourceURL: url, options: resolveScrapeOptions({ formats: ['markdown'], ...extra }, formats),
});
const doc = (url: string, text: string) => ({ markdown: text, metadata: { url, sourceURL: url, statusCode: 200 } }) as unknown as Document;

test('a stored document is then a hit with no statement, honouring maxAge and minAge', async () => {
  const db = counted();
  const url = `https://example.test/memory-${crypto.randomUUID()}`;
  await createScrapeCache(db, silentLogger).store(request(url), doc(url, 'first'));
  db.statements = 0;
  const hit = await answeredByCache(db, url, request(url).options);
  expect(hit.answered).toBe(true);
  expect(db.statements).toBe(0);
  const served = await createScrapeCache(db, silentLogger).lookup(request(url));
  expect(served?.markdown).toBe('first');
  expect(served?.metadata.cacheState).toBe('hit');
  expect(db.statements).toBe(0);

  await Bun.sleep(60);
  // Too old for maxAge 10 ms: the table is asked, and it has nothing that young either.
  expect((await answeredByCache(db, url, request(url, { maxAge: 10 }).options)).answered).toBe(false);
  expect(db.statements).toBe(1);
  // Too young for minAge 1 h: the table decides (a 404 for a cache-only request).
  db.statements = 0;
  expect(await createScrapeCache(db, silentLogger).lookup(request(url, { minAge: 3_600_000 })).catch((e) => e.code)).toBe('SCRAPE_NO_CACHED_DATA');
  expect(db.statements).toBe(1);
});

test('a store being written is not served from memory until it commits; a new version replaces the old', async () => {
  const db = counted();
  const url = `https://example.test/memory-${crypto.randomUUID()}`;
  await createScrapeCache(db, silentLogger).store(request(url), doc(url, 'v1'));
  // The second store goes to a bundle that is not flushed yet: memory no longer holds v1.
  let flush!: () => void;
  const held = new Promise<void>((r) => (flush = r));
  const slow: Queryable = { query: async <T>(sql: string, params?: unknown[]) => (await held, t.db.query<T>(sql, params)) };
  const storing = createScrapeCache(db, silentLogger, undefined, slow).store(request(url, { maxAge: 0 }), doc(url, 'v2'));
  await storing;
  db.statements = 0;
  expect((await createScrapeCache(db, silentLogger).lookup(request(url)))?.markdown).toBe('v1'); // from the table
  expect(db.statements).toBe(1);
  flush();
  // Once the bundle commits, v2 is served from memory: no statement (polled, not a fixed sleep: the
  // commit's timing depends on the machine's load).
  const until = Date.now() + 10_000; // hang bound only
  let fromMemory = false;
  while (!fromMemory && Date.now() < until) {
    await Bun.sleep(20);
    db.statements = 0;
    fromMemory = (await createScrapeCache(db, silentLogger).lookup(request(url)))?.markdown === 'v2' && db.statements === 0;
  }
  expect(fromMemory).toBe(true);
});

test('Postgres: no memory cache (other processes write the table)', async () => {
  expect(memoryCacheOf(counted('postgres'))).toBeUndefined();
});

test('expired entries are not served; the byte cap evicts the least recently used', () => {
  const m = new MemoryCache(100);
  const now = new Date();
  m.remember('gone', { body: 'x', cachedAt: now }, Date.now() - 1);
  expect(m.find('gone', 60_000)).toBeUndefined();
  m.remember('a', { body: 'a'.repeat(40), cachedAt: now }, Date.now() + 60_000);
  m.remember('b', { body: 'b'.repeat(40), cachedAt: now }, Date.now() + 60_000);
  expect(m.find('a', 60_000)?.body).toBe('a'.repeat(40)); // a is now the most recently used
  m.remember('c', { body: 'c'.repeat(40), cachedAt: now }, Date.now() + 60_000);
  expect(m.find('b', 60_000)).toBeUndefined();
  expect(m.find('a', 60_000)).toBeDefined();
  expect(m.find('c', 60_000)).toBeDefined();
  expect(m.size).toBe(80);
});
