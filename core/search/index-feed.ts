/**
 * The local search index's intake: scraped documents are turned into index rows at once (cheap) and
 * written in batches, one multi-row upsert per batch, off the path of the scrape or crawl page that
 * produced them. A crawl page then costs the database one statement (its completion) instead of two,
 * and the tsvector work of many pages is done in one statement (bench: 2.4 ms/page one by one, 1.5 ms
 * batched, PGlite). The index is derived data: rows are written within `maxDelayMs`; a process killed
 * before a flush loses those rows from the index only (the documents themselves are stored by then).
 * Backpressure: when `maxPending` rows wait, `add` waits for the flush under way.
 */
import type { Queryable } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { Document } from '../pipeline/scrape.ts';
import { upsertPages, type IndexedPage } from './local-index.ts';
import { upsertPaper } from './papers/store.ts';
import { indexEntriesOf } from './index-document.ts';

export interface IndexFeedOptions {
  /** Rows per upsert statement. Default 50. */
  maxBatch?: number;
  /** Longest time a row waits before it is written, ms. Default 250. */
  maxDelayMs?: number;
  /** Rows waiting at which `add` waits for the running flush. Default 1000. */
  maxPending?: number;
}

export interface SearchIndexFeed {
  /**
   * Queues a document for the index (page row, and its paper when it carries paper metadata). Never
   * throws; resolves at once unless `maxPending` rows are waiting.
   */
  add(doc: Document): Promise<void>;
  /** Writes everything queued (also called on close). Never throws. */
  flush(): Promise<void>;
  /** Rows waiting to be written. */
  readonly pending: number;
}

/** Creates the feed of one process (Services.searchIndex). */
export function createSearchIndexFeed(db: Queryable, log: Logger, options: IndexFeedOptions = {}): SearchIndexFeed {
  const maxBatch = options.maxBatch ?? 50;
  const maxDelayMs = options.maxDelayMs ?? 250;
  const maxPending = options.maxPending ?? 1000;
  let queued: IndexedPage[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;

  /** Writes full batches while there are any, then whatever is queued when `all` (flush). */
  async function write(all: boolean): Promise<void> {
    while (queued.length >= maxBatch || (all && queued.length > 0)) {
      const batch = queued.slice(0, maxBatch);
      queued = queued.slice(batch.length);
      await upsertPages(db, batch).catch((err) => log.warn({ err, rows: batch.length }, 'search indexing failed'));
    }
    // Rows that arrived meanwhile wait for a full batch or the delay.
    if (queued.length > 0) timer ??= setTimeout(() => void flush(), maxDelayMs);
  }

  /** Starts a writer unless one is running (it takes rows queued meanwhile); `all`: partial batches too. */
  function drain(all: boolean): Promise<void> {
    if (all && timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    running ??= write(all).finally(() => (running = undefined));
    return running;
  }

  async function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    await drain(true);
    // A writer that was already running may have left a partial batch behind.
    if (queued.length > 0) await drain(true);
  }

  return {
    get pending() {
      return queued.length;
    },
    flush,
    async add(doc) {
      try {
        const { page, paper } = indexEntriesOf(doc);
        if (!page) return;
        queued.push(page);
        if (paper) await upsertPaper(db, paper).catch((err) => log.warn({ err }, 'paper indexing failed'));
      } catch (err) {
        log.warn({ err }, 'search indexing failed');
        return;
      }
      if (queued.length >= maxBatch) void drain(false);
      else timer ??= setTimeout(() => void flush(), maxDelayMs);
      if (queued.length >= maxPending && running) await running;
    },
  };
}
