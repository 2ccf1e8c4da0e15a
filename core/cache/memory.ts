/**
 * Recent scrape cache entries held in memory (issue 22 scope 4), in front of the `scrape_cache`
 * table, for the embedded database only: there this process is the only writer, so what it stored
 * or read is what the table holds, and a cached scrape needs no cache read. With Postgres other
 * processes write the table, so it is always read (no memory cache).
 *
 * Per cache key the newest entry this process stored (after the write committed) or read. It answers
 * only hits, with the same rules as the table (`expires_at`, `maxAge`, `minAge`); anything else (no
 * entry, too old, too young) is read from the table as before. Least recently used entries go first
 * once the bodies exceed `MEMORY_CACHE_BYTES`.
 */
import type { CacheEntry } from './store.ts';

/** Cap on the bodies held, bytes (counted as UTF-16 code units, an upper bound for Latin-1 text). */
export const MEMORY_CACHE_BYTES = 64 * 1024 * 1024;

interface Held {
  body: string;
  cachedAt: Date;
  /** Never served after this, epoch ms (the row's `expires_at`). */
  expiresAtMs: number;
}

/** An LRU of cache entries by key, bounded by the total body size. */
export class MemoryCache {
  private readonly entries = new Map<string, Held>();
  private bytes = 0;

  constructor(private readonly capBytes = MEMORY_CACHE_BYTES) {}

  /**
   * The held entry of `key` when it answers a lookup with `maxAgeMs` (and `minAgeMs`) now; undefined
   * when the table must be asked.
   */
  find(key: string, maxAgeMs: number, minAgeMs?: number): CacheEntry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const now = Date.now();
    if (e.expiresAtMs <= now) {
      this.drop(key, e);
      return undefined;
    }
    const age = now - e.cachedAt.getTime();
    if (age > Math.max(0, maxAgeMs) || (minAgeMs !== undefined && age < Math.max(0, minAgeMs))) return undefined;
    this.entries.delete(key); // most recently used last
    this.entries.set(key, e);
    return { body: e.body, cachedAt: e.cachedAt };
  }

  /** Holds `entry` as `key`'s newest, unless a newer one is held already. Bodies above the cap are not held. */
  remember(key: string, entry: CacheEntry, expiresAt: number): void {
    const old = this.entries.get(key);
    if (old && old.cachedAt.getTime() > entry.cachedAt.getTime()) return;
    if (old) this.drop(key, old);
    const size = entry.body.length;
    if (size > this.capBytes || expiresAt <= Date.now()) return;
    this.entries.set(key, { body: entry.body, cachedAt: entry.cachedAt, expiresAtMs: expiresAt });
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.capBytes) break;
      this.drop(k, e);
    }
  }

  /** Stops holding `key` (its newest version is being written; until committed the table answers). */
  forget(key: string): void {
    const e = this.entries.get(key);
    if (e) this.drop(key, e);
  }

  /** Total body size held, bytes (as counted for the cap). */
  get size(): number {
    return this.bytes;
  }

  private drop(key: string, e: Held): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }
}

const byDatabase = new WeakMap<object, MemoryCache>();

/** The memory cache of database `db` when it is the embedded one (`kind: 'pglite'`), else undefined. */
export function memoryCacheOf(db: object): MemoryCache | undefined {
  if ((db as { kind?: string }).kind !== 'pglite') return undefined;
  let m = byDatabase.get(db);
  if (!m) byDatabase.set(db, (m = new MemoryCache()));
  return m;
}
