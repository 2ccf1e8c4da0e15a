/**
 * The `scrape_cache` table (migration 0005): serialized documents by cache key. Several versions of
 * one key are kept (the newest `VERSIONS_PER_KEY`), so `minAge` can still find an older copy after a
 * fresh scrape; lookups take the newest entry inside the requested age window.
 */
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';

/** Versions kept per cache key. */
export const VERSIONS_PER_KEY = 3;

export interface CacheEntry {
  /** Serialized Document as it was scraped. */
  body: string;
  cachedAt: Date;
  /** Never served after this (the row's `expires_at`); set on entries read from the table. */
  expiresAt?: Date;
}

/** Epoch ms `ms` before now, clamped to the epoch (an absurd maxAge means "any age"). */
const before = (ms: number) => new Date(Math.max(0, Date.now() - Math.max(0, ms)));

/**
 * The newest live entry of `key` whose age is at most `maxAgeMs` and at least `minAgeMs`.
 * @param maxAgeMs oldest acceptable copy, ms
 * @param minAgeMs youngest acceptable copy, ms (interface.md `minAge`); undefined: any
 */
export async function findCached(db: Queryable, key: string, maxAgeMs: number, minAgeMs?: number): Promise<CacheEntry | undefined> {
  const params: unknown[] = [key, before(maxAgeMs)];
  let sql = 'select body, cached_at, expires_at from scrape_cache where cache_key = $1 and expires_at > now() and cached_at >= $2';
  if (minAgeMs !== undefined) {
    params.push(before(minAgeMs));
    sql += ' and cached_at <= $3';
  }
  const rows = await db.query<{ body: string; cached_at: Date; expires_at: Date }>(`${sql} order by cached_at desc limit 1`, params);
  const r = rows[0];
  return r ? { body: r.body, cachedAt: new Date(r.cached_at), expiresAt: new Date(r.expires_at) } : undefined;
}

/**
 * Stores a document under `key` and drops versions beyond the newest `VERSIONS_PER_KEY`.
 * @param expiresAt after this the entry is never served
 */
export async function putCached(
  db: Queryable,
  entry: { key: string; url: string; statusCode: number; body: string; expiresAt: Date },
): Promise<void> {
  // One statement: the delete sees the rows from before the insert, so it keeps the newest
  // VERSIONS_PER_KEY - 1 of them besides the new one.
  await db.query(
    `with ins as (
       insert into scrape_cache (id, cache_key, url, status_code, body, size_bytes, expires_at) values ($1, $2, $3, $4, $5, $6, $7) returning id)
     delete from scrape_cache where cache_key = $2 and id not in (
       select id from scrape_cache where cache_key = $2 order by cached_at desc, id desc limit ${VERSIONS_PER_KEY - 1})`,
    [newId(), entry.key, entry.url, entry.statusCode, entry.body, Buffer.byteLength(entry.body), entry.expiresAt],
  );
}

/** Deletes expired entries (scheduler). @returns rows deleted */
export async function sweepCache(db: Queryable): Promise<number> {
  const rows = await db.query('delete from scrape_cache where expires_at < now() returning 1');
  return rows.length;
}
