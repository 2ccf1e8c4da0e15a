/**
 * The local search index's intake for crawl and batch pages. Indexing is derived work at a lower
 * priority than the pages themselves: `add` only queues the document's text and metadata, and the
 * rows (text extraction, tsvector, one multi-row upsert per batch) are written when the process is
 * quiet, so a crawl's pages are not slowed by it.
 *
 * When rows are written, one batch of `maxBatch` at a time, checking again between batches:
 * - quiet: no page arrived for `quietMs` (a crawl or batch has ended or paused), or `idle` says a
 *   crawl or batch has ended;
 * - overdue: the oldest row has waited `maxDelayMs` (under sustained load the index lags at most
 *   about this long);
 * - full: `maxPending` rows or `maxPendingChars` characters of text wait. When twice that waits,
 *   `add` also waits until the writer has brought the queue below the limits, which bounds memory.
 * Bench (bench/crawl/pg-docs.ts): indexing costs about 2 ms of CPU per page, a third of a crawl's.
 *
 * Unchanged pages are skipped before any of that work: each row stores a hash of what it was made
 * from (`sourceHash`, column `search_index.source_hash`, migration 0022); the writer reads the stored
 * hashes of the next rows (up to LOOKAHEAD, one statement) and drops the documents whose hash is
 * already there (a page crawled again as it was).
 *
 * The index is derived data: a process killed before the rows are written loses them from the index
 * only (the documents are stored by then); they return when the page is scraped again. `flush`
 * (called on close) writes everything.
 */
import type { Queryable } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { Document } from '../scrape/document.ts';
import { ANALYZER_VERSION, upsertPagesStatement, type IndexedPage } from './local-index.ts';
import { upsertPaper } from './papers/store.ts';
import { indexEntriesOf, indexUrlOf } from './index-document.ts';
import type { PaperRecord } from './papers/extract.ts';

export interface IndexFeedOptions {
  /** Rows per upsert statement. Default 50. */
  maxBatch?: number;
  /** Time without new pages after which the process counts as quiet and rows are written, ms. Default 250. */
  quietMs?: number;
  /** Longest time a row waits before it is written, however busy the process, ms. Default 30,000. */
  maxDelayMs?: number;
  /** Rows waiting at which they are written without waiting for quiet. Default 2,000. */
  maxPending?: number;
  /** Characters of page text waiting at which they are written without waiting for quiet. Default 16 Mi. */
  maxPendingChars?: number;
}

export interface SearchIndexFeed {
  /**
   * Queues a document for the index (page row under `teamId`, and its paper when it carries paper
   * metadata). Never throws; resolves at once unless twice `maxPending` rows (or `maxPendingChars`)
   * are waiting.
   */
  add(doc: Document, teamId: string): Promise<void>;
  /** Writes everything queued (also called on close). Never throws. */
  flush(): Promise<void>;
  /**
   * A producer's run has ended (a crawl or batch finished): counts the process as quiet now instead
   * of `quietMs` after the last page, so the rows are written at once. A page added meanwhile makes
   * it busy again (at most the batch being written goes first). Never throws.
   */
  idle(): void;
  /** Documents waiting to be written. */
  readonly pending: number;
}

/** A queued document: only what the index reads of it (the text it is made from and the metadata). */
interface Queued {
  doc: Document;
  /** Team whose scrape produced it (the row's owner). */
  teamId: string;
  /** Characters of text held. */
  chars: number;
  /** When it was queued (performance.now(), ms). */
  at: number;
  /** `sourceHash` of the document, set when the writer looks the stored hashes up. */
  hash?: string;
  /** The hash stored in its row then (undefined: no row, or not known for sure). */
  stored?: string;
  /** `sourceHash` threw on this document: it is written as it comes, never skipped. */
  unhashable?: true;
}

/** Queued rows whose stored hashes one statement reads. */
const LOOKAHEAD = 1000;

/**
 * Metadata that differs between two scrapes of the same unchanged page (ids, cache and billing
 * facts); none of it goes into an index row.
 */
const PER_SCRAPE_METADATA = new Set(['scrapeId', 'cacheState', 'cachedAt', 'creditsUsed', 'concurrencyLimited', 'concurrencyQueueDurationMs', 'proxyUsed']);

/**
 * Hash of what a document's index rows are made from: the analyzer version, its first text field
 * (markdown, html, rawHtml: the one index-document.ts reads) and its metadata without per-scrape
 * fields. Equal hashes give equal rows (a publication date in the future is read against the clock,
 * so such a row is refreshed only when the page changes).
 * @returns wyhash (Bun.hash, 64 bits) in base 36
 */
export function sourceHash(doc: Document): string {
  const meta: Record<string, unknown> = {};
  for (const k in doc.metadata) if (!PER_SCRAPE_METADATA.has(k)) meta[k] = doc.metadata[k];
  let field = '';
  let text = '';
  for (const f of ['markdown', 'html', 'rawHtml'] as const) {
    if (typeof doc[f] === 'string') {
      field = f;
      text = doc[f] as string;
      break;
    }
  }
  return Bun.hash(text, Bun.hash(`${ANALYZER_VERSION} ${field} ${JSON.stringify(meta)}`)).toString(36);
}

/**
 * The fields of a document the index rows are made from: its metadata and the first of markdown,
 * html and rawHtml it has (index-document.ts documentText, extractPaper), and that text's length.
 */
function indexSource(doc: Document): Pick<Queued, 'doc' | 'chars'> {
  for (const field of ['markdown', 'html', 'rawHtml'] as const) {
    const text = doc[field];
    if (typeof text === 'string') return { doc: { [field]: text, metadata: doc.metadata }, chars: text.length };
  }
  return { doc: { metadata: doc.metadata }, chars: 0 };
}

/** Creates the feed of one process (Services.searchIndex). */
export function createSearchIndexFeed(db: Queryable, log: Logger, options: IndexFeedOptions = {}): SearchIndexFeed {
  const maxBatch = options.maxBatch ?? 50;
  const quietMs = options.quietMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const maxPending = options.maxPending ?? 2000;
  const maxPendingChars = options.maxPendingChars ?? 16 * 1024 * 1024;
  let queued: Queued[] = [];
  let queuedChars = 0;
  let lastAdd = 0;
  /** Rows queued before a flush() call that it still has to write. */
  let owed = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;

  const full = (factor: number) => queued.length >= maxPending * factor || queuedChars >= maxPendingChars * factor;

  /** Whether the next batch should be written now; else when (performance.now(), ms) to look again. */
  function due(now: number): true | number | undefined {
    if (queued.length === 0) return undefined;
    if (owed > 0 || full(1)) return true;
    const overdueAt = queued[0].at + maxDelayMs;
    const quietAt = lastAdd + quietMs;
    return now >= overdueAt || now >= quietAt ? true : Math.min(overdueAt, quietAt);
  }

  /** Takes the next batch off the queue. */
  function takeBatch(): Queued[] {
    const batch = queued.slice(0, maxBatch);
    queued = queued.slice(batch.length);
    owed = Math.max(0, owed - batch.length);
    return batch;
  }

  /**
   * Does a batch's JavaScript work (text, tsvectors, JSON), leaving out unchanged documents.
   * @returns the work left for the database
   */
  function prepareBatch(batch: Queued[]): () => Promise<void> {
    const pages: IndexedPage[] = [];
    const papers: PaperRecord[] = [];
    for (const q of batch) {
      queuedChars -= q.chars;
      if (q.hash !== undefined && q.hash === q.stored) continue; // unchanged since its row was written
      try {
        const { page, paper } = indexEntriesOf(q.doc);
        if (page) pages.push({ ...page, teamId: q.teamId, sourceHash: q.hash });
        if (paper) papers.push(paper);
      } catch (err) {
        log.warn({ err }, 'search indexing failed');
      }
    }
    let statement: ReturnType<typeof upsertPagesStatement>;
    try {
      statement = upsertPagesStatement(pages);
    } catch (err) {
      log.warn({ err, rows: pages.length }, 'search indexing failed');
    }
    return async () => {
      if (statement) await db.query(statement.sql, statement.params).catch((err) => log.warn({ err, rows: pages.length }, 'search indexing failed'));
      for (const paper of papers) await upsertPaper(db, paper).catch((err) => log.warn({ err }, 'paper indexing failed'));
    };
  }

  /**
   * Reads the stored hashes of a batch's rows and of the queued rows after it (LOOKAHEAD in all).
   * A URL found twice among them is never skipped (its later document must win).
   * Never throws: on failure the rows are written as they come.
   */
  async function lookUpHashes(batch: Queued[]): Promise<void> {
    const window = [...batch, ...queued.slice(0, Math.max(0, LOOKAHEAD - batch.length))];
    const keys = new Map<string, Queued[]>();
    const keyAt: string[] = [];
    const asked: { i: number; t: string; u: string }[] = [];
    window.forEach((q, i) => {
      if (q.hash === undefined && !q.unhashable) {
        try {
          q.hash = sourceHash(q.doc);
        } catch (err) {
          q.unhashable = true;
          log.warn({ err }, 'search index hash failed; the page is written unhashed');
        }
      }
      q.stored = undefined;
      const url = indexUrlOf(q.doc.metadata)?.href;
      if (url === undefined) return;
      const key = `${q.teamId} ${url}`;
      keyAt[i] = key;
      const same = keys.get(key);
      if (same) same.push(q);
      else {
        keys.set(key, [q]);
        asked.push({ i, t: q.teamId, u: url });
      }
    });
    if (asked.length === 0) return;
    try {
      const rows = await db.query<{ i: number; h: string }>(
        `SELECT x.i, s.source_hash AS h FROM json_to_recordset($1::json) AS x(i int, t text, u text)
         JOIN search_index s ON s.team_id = x.t AND s.url = x.u WHERE s.source_hash IS NOT NULL`,
        [JSON.stringify(asked)],
      );
      for (const r of rows) {
        const i = Number(r.i);
        if (keys.get(keyAt[i])?.length === 1) window[i].stored = r.h;
      }
    } catch (err) {
      log.warn({ err }, 'search index hashes could not be read');
    }
  }

  /**
   * Writes batches while they are due, then sets a timer for the next time one may be. The next
   * batch is prepared while the database writes the previous one, so both threads work.
   */
  async function write(): Promise<void> {
    let writing: Promise<void> | undefined;
    for (;;) {
      const when = due(performance.now());
      if (when === true) {
        const batch = takeBatch();
        if (batch.some((q) => q.hash === undefined && !q.unhashable)) {
          // The hashes read must include the rows being written (another connection may read them).
          await writing;
          writing = undefined;
          await lookUpHashes(batch);
        }
        const run = prepareBatch(batch);
        await writing;
        writing = run();
      } else if (writing) {
        // Look again once the database is done: rows may have become due meanwhile.
        await writing;
        writing = undefined;
      } else {
        if (when !== undefined) schedule(when);
        return;
      }
    }
  }

  function schedule(at: number): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void drain();
    }, Math.max(0, at - performance.now()));
    // Not a reason to keep a process alive: closing services flushes the queue.
    timer.unref?.();
  }

  /** Starts the writer unless it is running. */
  function drain(): Promise<void> {
    running ??= write().finally(() => (running = undefined));
    return running;
  }

  return {
    get pending() {
      return queued.length;
    },
    async flush() {
      owed = queued.length;
      // A running writer may stop (not due) before reaching the rows owed; then start it again.
      while (owed > 0) await drain().catch((err) => log.warn({ err }, 'search indexing failed'));
    },
    idle() {
      if (queued.length === 0) return;
      lastAdd = -Infinity;
      // A running writer sees the process quiet at its next check.
      if (!running) void drain().catch((err) => log.warn({ err }, 'search indexing failed'));
    },
    async add(doc, teamId) {
      const now = performance.now();
      const source = indexSource(doc);
      queued.push({ ...source, teamId, at: now });
      queuedChars += source.chars;
      lastAdd = now;
      if (full(1)) void drain();
      else if (!running && !timer) schedule(Math.min(now + quietMs, queued[0].at + maxDelayMs));
      if (full(2)) await drain();
    },
  };
}
