/**
 * Claiming and completing frontier rows (worker side). The queue only carries "run row X, enqueue n"
 * messages; a claim succeeds only for the row's current enqueue number and bumps `attempts`, which is
 * the claim token every later write presents, so a duplicated or stale queue message, or a worker
 * whose lease lapsed, never stores a page twice.
 */
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { advanceOf, type Advance, type AdvanceRow, type Candidate } from './crawl-urls.ts';

/** A claimed row: what the worker scrapes. */
export interface ClaimedUrl {
  jobId: string;
  id: string;
  key: string;
  url: string;
  sourceUrl: string;
  depth: number;
  external: boolean;
  /** Claim token: completion must present it. */
  attempt: number;
}

/**
 * Claims a queued row for this worker.
 * @param enqueue the enqueue number the queue message carries (stale messages claim nothing)
 * @param leaseMs how long the claim holds without renewal, ms
 */
export async function claimUrl(db: Queryable, rowId: string, enqueue: number, leaseMs: number): Promise<ClaimedUrl | undefined> {
  const rows = await db.query<Record<string, any>>(
    `update crawl_urls c set status = 'active', attempts = attempts + 1, lease_until = now() + ($3::int * interval '1 millisecond'), updated_at = now()
     from crawl_jobs j
     where c.id = $1 and c.status = 'queued' and c.enqueues = $2 and j.id = c.job_id and j.state = 'running'
     returning c.job_id, c.id, c.url_key, c.url, c.source_url, c.depth, c.external, c.attempts`,
    [rowId, enqueue, leaseMs],
  );
  const r = rows[0];
  if (!r) return undefined;
  return { jobId: r.job_id, id: r.id, key: r.url_key, url: r.url, sourceUrl: r.source_url, depth: r.depth, external: r.external, attempt: r.attempts };
}

/** Extends a claim; false when the row is no longer this worker's. */
export async function renewLease(db: Queryable, claim: ClaimedUrl, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `update crawl_urls set lease_until = now() + ($3::int * interval '1 millisecond') where id = $1 and status = 'active' and attempts = $2 returning 1`,
    [claim.id, claim.attempt, leaseMs],
  );
  return rows.length > 0;
}

/** True when the row is still claimed by `claim` (checked inside the completion transaction). */
export async function stillOwned(tx: Queryable, claim: ClaimedUrl): Promise<boolean> {
  const rows = await tx.query(`select 1 from crawl_urls where id = $1 and status = 'active' and attempts = $2`, [claim.id, claim.attempt]);
  return rows.length > 0;
}

/** Sets a row's final status with an optional error record. */
export async function settleRow(tx: Queryable, rowId: string, status: string, error?: { code?: string; message: string }): Promise<void> {
  await tx.query(
    `update crawl_urls set status = $2, error_code = $3, error = $4, lease_until = null, updated_at = now() where id = $1`,
    [rowId, status, error?.code ?? null, error?.message ?? null],
  );
}

/** A scraped page as `completePage` stores it. */
export interface CompletedPage {
  teamId: string;
  /** Final URL after redirects. */
  url: string;
  statusCode: number;
  /** The serialized Document, or undefined for zero data retention (not stored). */
  body?: string;
  /** Credits of the page: added to the crawl and charged to the team in the same statement. */
  credits: number;
  /** API key that started the job (the ledger's usage history); undefined for keyless calls. */
  apiKeyId?: string;
  discovered: Candidate[];
  /** The `*.page` webhook outbox row, when the job's webhook wants it. */
  hook?: { id: string; event: string; url: string; headers: Record<string, string>; body: string };
}

/** What completing one page gave (`completePage`, `completePages`). */
export interface Completion {
  status: 'done' | 'lost' | 'ended';
  advance: Advance;
  /** A page the completion claimed for this worker to run next. */
  next?: ClaimedUrl;
}

/**
 * Completes a claimed page in one statement (SQL function `crawl_complete_page`, migration
 * 0006_crawl_charge): claim check, completion order, document, credits (the crawl's count and the
 * team's ledger, kind 'scrape' with the page id as refId, idempotent), discovered links, webhook
 * event, next window.
 * Run it on the database handle (not inside a transaction) so the crawl's lock is held only while
 * the database works; inside a transaction it joins it.
 * @returns `done` with the advance, `lost` (the claim is no longer this worker's) or `ended`
 */
export async function completePage(
  db: Queryable,
  claim: ClaimedUrl,
  page: CompletedPage,
  chainLeaseMs = 0,
): Promise<Completion> {
  const byKey = new Map<string, Candidate>();
  for (const c of page.discovered) {
    const prior = byKey.get(c.key);
    if (!prior || c.depth < prior.depth) byKey.set(c.key, c);
  }
  const rows = [...byKey.values()];
  type Row = AdvanceRow & { status: 'done' | 'lost' | 'ended'; next?: Omit<ClaimedUrl, 'jobId'> | null };
  const [{ r }] = await db.query<{ r: Row }>(
    'select crawl_complete_page($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) as r',
    [
      claim.jobId, claim.id, claim.attempt, page.credits, page.teamId, page.url, claim.sourceUrl, page.statusCode, page.body ?? null,
      rows.map((c) => c.key), rows.map(() => newId()), rows.map((c) => c.url), rows.map((c) => c.sourceUrl), rows.map((c) => c.depth),
      rows.map((c) => (c.external ? 1 : 0)), page.hook ?? null, chainLeaseMs, page.apiKeyId ?? null, newId(),
    ],
  );
  if (r.status !== 'done') return { status: r.status, advance: { items: [], pending: 1 } };
  const next = r.next ? { ...r.next, jobId: claim.jobId } : undefined;
  const advance = advanceOf(claim.jobId, r);
  if (next) advance.items = advance.items.filter((i) => i.rowId !== next.id);
  return { status: 'done', advance, next };
}

/** One page to complete: its claim, what to store and its chain lease (0: claim no next page). */
export interface PageToComplete {
  claim: ClaimedUrl;
  page: CompletedPage;
  chainLeaseMs: number;
}

/**
 * Completes several claimed pages of one crawl in one statement (SQL function
 * `crawl_complete_pages`, migration 0010_crawl_complete_pages): each page as `completePage` would,
 * in the order given, with one lock, one counter update, one insert of all their links and one
 * advance. The window's new rows go to the first stored page's completion; next pages claimed for
 * the chain go to the pages that asked, in order. Team and API key come from the first page (a
 * crawl has one of each).
 * @returns one Completion per page, in order
 */
export async function completePages(db: Queryable, pages: readonly PageToComplete[]): Promise<Completion[]> {
  const { claim: first, page: firstPage } = pages[0];
  const links: { page: number; c: Candidate }[] = [];
  pages.forEach(({ page }, i) => {
    for (const c of page.discovered) links.push({ page: i + 1, c });
  });
  type Row = AdvanceRow & { status: 'done' | 'ended'; pages: ('done' | 'lost')[]; next: Omit<ClaimedUrl, 'jobId'>[] };
  const [{ r }] = await db.query<{ r: Row }>(
    `select crawl_complete_pages($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, $15, $16, $17, $18, $19, $20) as r`,
    [
      first.jobId, firstPage.teamId, firstPage.apiKeyId ?? null,
      pages.map((p) => p.claim.id), pages.map((p) => p.claim.attempt), pages.map((p) => p.page.credits), pages.map((p) => p.page.url),
      pages.map((p) => p.claim.sourceUrl), pages.map((p) => p.page.statusCode), pages.map((p) => p.page.body ?? null),
      JSON.stringify(pages.map((p) => p.page.hook ?? null)), pages.map(() => newId()), pages.map((p) => p.chainLeaseMs),
      links.map((l) => l.page), links.map((l) => l.c.key), links.map(() => newId()), links.map((l) => l.c.url), links.map((l) => l.c.sourceUrl),
      links.map((l) => l.c.depth), links.map((l) => (l.c.external ? 1 : 0)),
    ],
  );
  const lost: Completion = { status: 'lost', advance: { items: [], pending: 1 } };
  if (r.status !== 'done') return pages.map(() => ({ status: r.status, advance: { items: [], pending: 1 } }));
  const nexts = r.next.map((n) => ({ ...n, jobId: first.jobId }));
  const claimed = new Set(nexts.map((n) => n.id));
  const advance = advanceOf(first.jobId, r);
  const items = advance.items.filter((i) => !claimed.has(i.rowId));
  let itemsGiven = false;
  return pages.map((p, i) => {
    if (r.pages[i] !== 'done') return lost;
    const next = p.chainLeaseMs > 0 ? nexts.shift() : undefined;
    const mine = itemsGiven ? [] : items;
    itemsGiven = true;
    return { status: 'done', advance: { pending: advance.pending, items: mine }, next };
  });
}

/** Most pages one `crawl_complete_pages` statement stores. */
const MAX_GROUP = 32;
/**
 * A group is sent once this many pages wait, or when none of the crawl's pages is still being
 * scraped in this process, or after GATHER_MS. Measured on PGlite (bench/crawl/README.md, 2026-11-26):
 * database CPU per stored page 1.38 ms alone, 0.84 in groups of 4, 0.60 of 8, 0.52 of 16.
 */
export const GATHER_PAGES = 8;
/** Longest a page waits for others to join its group, ms. */
export const GATHER_MS = 4;

interface Waiting extends PageToComplete {
  resolve(c: Completion): void;
  reject(e: unknown): void;
}

/** One crawl's state in one process: pages waiting to be stored, pages still being scraped, a gatherer to wake. */
interface CrawlGroup {
  queue: Waiting[];
  /** A store loop is running (a statement under way or a group gathering). */
  storing: boolean;
  /** Pages of the crawl this process is scraping (trackScrape), which will complete soon. */
  scraping: number;
  /** Wakes a gathering group when a page joins it or a scrape ends. */
  wake?: () => void;
}

/** Per database handle: the crawls this process is scraping or storing pages of. */
const groups = new WeakMap<Queryable, Map<string, CrawlGroup>>();

function crawlGroup(db: Queryable, jobId: string): CrawlGroup {
  let crawls = groups.get(db);
  if (!crawls) groups.set(db, (crawls = new Map()));
  let g = crawls.get(jobId);
  if (!g) crawls.set(jobId, (g = { queue: [], storing: false, scraping: 0 }));
  return g;
}

function dropIfIdle(db: Queryable, jobId: string, g: CrawlGroup): void {
  if (!g.storing && g.scraping === 0 && g.queue.length === 0) groups.get(db)?.delete(jobId);
}

/**
 * Counts a page of crawl `jobId` as being scraped by this process until the returned function is
 * called (idempotent): `completePageGrouped` lets a group wait for such pages (at most GATHER_MS)
 * rather than store a page alone while more of the crawl's pages are about to complete.
 * @returns call when the page's scrape has ended (before storing it, or when it failed)
 */
export function trackScrape(db: Queryable, jobId: string): () => void {
  const g = crawlGroup(db, jobId);
  g.scraping++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    g.scraping--;
    g.wake?.();
    dropIfIdle(db, jobId, g);
  };
}

/**
 * Completes a claimed page like `completePage`, grouping it with the same crawl's other pages
 * (group commit): pages of the crawl completed in this process while one of its statements is under
 * way wait for it and then go together in one (`completePages`); a page that finds no statement
 * under way waits up to GATHER_MS for others while pages of the crawl are still being scraped here
 * (trackScrape), until GATHER_PAGES wait. Most of the per-page work of the database (the lock, the
 * counters, the window's advance) is shared. A group that fails is retried one page at a time, so
 * one page's error is its own.
 * Use it on the database handle, never inside a transaction.
 */
export function completePageGrouped(db: Queryable, claim: ClaimedUrl, page: CompletedPage, chainLeaseMs = 0): Promise<Completion> {
  const g = crawlGroup(db, claim.jobId);
  return new Promise<Completion>((resolve, reject) => {
    g.queue.push({ claim, page, chainLeaseMs, resolve, reject });
    if (g.storing) {
      g.wake?.();
      return;
    }
    g.storing = true;
    void storeGroups(db, claim.jobId, g);
  });
}

/** Waits until GATHER_PAGES pages wait, no page of the crawl is being scraped here, or GATHER_MS passed. */
async function gather(g: CrawlGroup): Promise<void> {
  if (g.queue.length >= GATHER_PAGES || g.scraping === 0) return;
  const until = performance.now() + GATHER_MS;
  while (g.queue.length < GATHER_PAGES && g.scraping > 0) {
    const left = until - performance.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, left);
      function done() {
        clearTimeout(timer);
        g.wake = undefined;
        resolve();
      }
      g.wake = done;
    });
  }
}

/** Stores the waiting pages of one crawl, a group per statement, until none is left. */
async function storeGroups(db: Queryable, jobId: string, g: CrawlGroup): Promise<void> {
  try {
    for (;;) {
      await gather(g);
      if (g.queue.length === 0) break;
      const group = g.queue.splice(0, MAX_GROUP);
      if (group.length === 1) {
        const [one] = group;
        await completePage(db, one.claim, one.page, one.chainLeaseMs).then(one.resolve, one.reject);
        continue;
      }
      try {
        const done = await completePages(db, group);
        group.forEach((w, i) => w.resolve(done[i]));
      } catch {
        for (const w of group) await completePage(db, w.claim, w.page, w.chainLeaseMs).then(w.resolve, w.reject);
      }
    }
  } finally {
    g.storing = false;
    dropIfIdle(db, jobId, g);
  }
}
