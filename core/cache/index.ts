/**
 * The scrape cache (interface.md `maxAge`, `minAge`, `lockdown`, `storeInCache`; compat.md §3, §4;
 * issue 3 scope 5), used by the scrape pipeline around each fresh scrape:
 *
 * - `lookup` runs before any engine. A cached copy younger than `maxAge` (and, with `minAge`, older
 *   than it) is returned as a new document: a new `scrapeId`, the request's `sourceURL`,
 *   `metadata.cacheState: "hit"` and `cachedAt`. With `minAge` or `lockdown` only the cache is
 *   consulted and a miss is a 404 (SCRAPE_NO_CACHED_DATA / SCRAPE_LOCKDOWN_CACHE_MISS; lockdown never
 *   names the URL in the message or the log).
 * - `store` runs after a fresh scrape: it files a 2xx document when `storeInCache` allows it and marks
 *   the document `cacheState: "miss"`.
 *
 * Requests with actions, custom headers or a profile neither read nor write the cache (their output
 * depends on more than the URL, and may be private). Entries are shared by every team, like the
 * reference's index; a document holding blob URLs (a format declaring `blobs`) stays only as long as
 * its blobs (23 h).
 */
import type { Queryable } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import type { Document, ScrapeRequest } from '../scrape/document.ts';
import { TrawlError } from '../errors.ts';
import { cacheKey, cacheUrl } from './key.ts';
import { findCached, putCached, type CacheEntry } from './store.ts';
import { memoryCacheOf } from './memory.ts';

/**
 * The newest live entry of `key` inside the age window: from the memory cache when it holds one
 * (embedded database, core/cache/memory.ts), else from the table (then held in memory).
 * @param maxAgeMs oldest acceptable copy, ms; `minAgeMs` youngest acceptable copy, ms
 */
async function readCached(db: Queryable, key: string, maxAgeMs: number, minAgeMs?: number): Promise<CacheEntry | undefined> {
  const memory = memoryCacheOf(db);
  const held = memory?.find(key, maxAgeMs, minAgeMs);
  if (held) return held;
  const entry = await findCached(db, key, maxAgeMs, minAgeMs);
  // A minAge read may be an older version than the newest: only a plain read is held as the newest.
  if (entry?.expiresAt && memory && minAgeMs === undefined) memory.remember(key, entry, entry.expiresAt.getTime());
  return entry;
}

/** How long a plain cache entry may be served: the lockdown default maxAge (2 years), ms. */
export const CACHE_RETENTION_MS = 2 * 365 * 24 * 3600 * 1000;
/** A document holding blob URLs (a format declaring `blobs`) lives as long as its blobs (24 h), less a margin, ms. */
export const BLOB_DOCUMENT_RETENTION_MS = 23 * 3600 * 1000;

export interface ScrapeCache {
  /**
   * A cached document answering `req`, or undefined when the page must be scraped.
   * @throws TrawlError SCRAPE_LOCKDOWN_CACHE_MISS / SCRAPE_NO_CACHED_DATA (404) on a cache-only miss
   */
  lookup(req: ScrapeRequest): Promise<Document | undefined>;
  /**
   * Files a freshly scraped document when the request allows it; sets `metadata.cacheState: "miss"`.
   * @param facts `holdsBlobs`: the document holds blob URLs (a format declaring `blobs`), so the entry
   *              lives only as long as they do
   */
  store(req: ScrapeRequest, doc: Document, facts?: { holdsBlobs?: boolean }): Promise<void>;
}

/** Whether the request's output may come from (and go to) the cache at all. */
export function cacheable(options: ScrapeOptions): boolean {
  const headers = options.headers && Object.keys(options.headers).length > 0;
  return !options.actions?.length && !headers && !options.profile;
}

/** Whether only the cache may answer (interface.md `minAge`, `lockdown`). */
export function cacheOnly(options: ScrapeOptions): boolean {
  return options.lockdown || options.minAge !== undefined;
}

/** The 404 of a cache-only request that found nothing (no URL in the message: lockdown). */
export function cacheOnlyMiss(options: ScrapeOptions): TrawlError {
  if (options.lockdown) {
    return new TrawlError(
      'SCRAPE_LOCKDOWN_CACHE_MISS',
      'No cached copy of this page is available, and lockdown mode never contacts the site. Scrape it once without lockdown to fill the cache.',
    );
  }
  return new TrawlError(
    'SCRAPE_NO_CACHED_DATA',
    `No cached copy of this page at least ${options.minAge} ms old (and at most maxAge ${options.maxAge} ms old) is available. Remove minAge to scrape it fresh.`,
  );
}

/**
 * What the API read from the cache for a request, handed to the scrape (`createScrapeCache`) so the
 * same entry is not read twice: `entry` is the hit; without it the lookup missed (`cacheOnly`
 * requests do their own lookup in the scrape).
 */
export interface CacheAnswer {
  key: string;
  entry?: CacheEntry;
}

/**
 * Whether this request is settled by the cache alone, without contacting the target: a fresh
 * enough entry exists, or the request is cache-only (its miss is a 404). The API answers such
 * requests in-process instead of queueing them, so cached scrapes cost no queue round trip.
 * @param url normalized target URL
 * @returns `answered`: settled by the cache; `read`: what was read (pass to the scrape), when a
 *          lookup ran
 */
export async function answeredByCache(db: Queryable, url: string, options: ScrapeOptions): Promise<{ answered: boolean; read?: CacheAnswer }> {
  if (!cacheable(options)) return { answered: false };
  if (cacheOnly(options)) return { answered: true };
  if (options.maxAge <= 0) return { answered: false };
  const key = cacheKey(url, options);
  const entry = await readCached(db, key, options.maxAge, options.minAge);
  return { answered: entry !== undefined, read: { key, entry } };
}

/**
 * The cache over a database.
 * @param db   the `scrape_cache` table's database
 * @param log  for cache facts (the key prefix, never a lockdown URL)
 * @param read what the API already read for this scrape (`answeredByCache`): the first lookup of
 *             the same key uses it instead of reading again (a miss is not read again either)
 * @param writes where `store` files entries instead of `db`, without waiting for the write: the
 *               scrape job's write bundle (core/store/write-bundle.ts), which sends it with the
 *               document's writes once the scrape is done; a failed write is logged, as always
 */
export function createScrapeCache(db: Queryable, log: Logger, read?: CacheAnswer, writes?: Queryable): ScrapeCache {
  let prefetched = read;
  return {
    async lookup(req) {
      const { options } = req;
      const only = cacheOnly(options);
      if (!cacheable(options) || (options.maxAge <= 0 && !only)) {
        if (only) throw cacheOnlyMiss(options);
        return undefined;
      }
      const key = cacheKey(req.url, options);
      const reuse = prefetched?.key === key && !only ? prefetched : undefined;
      prefetched = undefined;
      const entry = reuse ? reuse.entry : await readCached(db, key, options.maxAge, options.minAge);
      if (!entry) {
        log.debug({ cacheKey: key.slice(0, 12), cacheOnly: only }, 'cache miss');
        if (only) throw cacheOnlyMiss(options);
        return undefined;
      }
      const doc = JSON.parse(entry.body) as Document;
      doc.metadata.sourceURL = req.sourceURL;
      doc.metadata.scrapeId = req.scrapeId;
      doc.metadata.cacheState = 'hit';
      doc.metadata.cachedAt = entry.cachedAt.toISOString();
      log.debug({ cacheKey: key.slice(0, 12), ageMs: Date.now() - entry.cachedAt.getTime() }, 'cache hit');
      return doc;
    },

    async store(req, doc, facts) {
      const { options } = req;
      const status = Number(doc.metadata.statusCode);
      if (options.storeInCache && !options.zeroDataRetention && cacheable(options) && status >= 200 && status < 300 && !doc.actions) {
        const retention = facts?.holdsBlobs ? BLOB_DOCUMENT_RETENTION_MS : CACHE_RETENTION_MS;
        const entry = { key: cacheKey(req.url, options), url: cacheUrl(req.url), statusCode: status, body: JSON.stringify(doc), expiresAt: new Date(Date.now() + retention) };
        const cachedAt = new Date();
        const memory = memoryCacheOf(db);
        memory?.forget(entry.key);
        const put = putCached(writes ?? db, entry).then(
          // Held in memory once the row is committed, never before (a failed write leaves nothing to serve).
          () => memory?.remember(entry.key, { body: entry.body, cachedAt }, entry.expiresAt.getTime()),
          (err) => log.warn({ err }, 'could not store a document in the scrape cache'),
        );
        if (!writes) await put;
      }
      doc.metadata.cacheState = 'miss';
    },
  };
}
