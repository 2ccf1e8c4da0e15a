/**
 * The crawl frontier in the database: one `crawl_urls` row per distinct URL of a crawl (or per URL of
 * a batch). Every state change of a crawl runs under its `crawl_jobs` row lock (`lockJob`, or inside
 * the SQL functions of migration 0003_crawl_functions), so the counters (`accepted` for `limit`, `done_count` for
 * completion order) stay exact when several workers in several processes share one crawl. Rows move
 * backlog -> queued -> active -> done | failed. This file inserts and promotes rows; claiming and
 * completing them is in crawl-claims.ts.
 */
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';

/** A `crawl_jobs` row as the frontier needs it. */
export interface LockedJob {
  id: string;
  teamId: string;
  kind: 'crawl' | 'batch_scrape';
  state: 'running' | 'cancelled' | 'finished';
  concurrency: number;
  delayMs: number;
  urlLimit: number;
  accepted: number;
  excess: number;
  doneCount: number;
  finishedCount: number;
  kickoff: string;
  options: Record<string, any>;
}

/** A URL found by discovery (sitemap or links), already judged in scope. */
export interface Candidate {
  key: string;
  url: string;
  sourceUrl: string;
  depth: number;
  external: boolean;
}

/** What discovery found: URLs to crawl, robots-blocked URLs, and skipped URLs with an error record. */
export interface Discovery {
  accept: Candidate[];
  robots: { key: string; url: string }[];
  skipped: { key: string; url: string; code: string; error: string }[];
}

/** A row handed to the queue: queue job id `<rowId>.<enqueue>`. */
export interface QueueItem {
  jobId: string;
  rowId: string;
  enqueue: number;
  delayMs: number;
}

export const emptyDiscovery = (): Discovery => ({ accept: [], robots: [], skipped: [] });

/**
 * Locks the crawl's `crawl_jobs` row for the rest of the transaction.
 * @param skipLocked return undefined instead of waiting when another transaction holds it
 */
export async function lockJob(tx: Queryable, id: string, skipLocked = false): Promise<LockedJob | undefined> {
  const rows = await tx.query<Record<string, any>>(
    `select id, team_id, kind, state, concurrency, delay_ms, url_limit, accepted, excess, done_count, finished_count, kickoff, options
     from crawl_jobs where id = $1 for update${skipLocked ? ' skip locked' : ''}`,
    [id],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    teamId: r.team_id,
    kind: r.kind,
    state: r.state,
    concurrency: r.concurrency,
    delayMs: r.delay_ms,
    urlLimit: r.url_limit,
    accepted: r.accepted,
    excess: r.excess,
    doneCount: r.done_count,
    finishedCount: r.finished_count,
    kickoff: r.kickoff,
    options: r.options,
  };
}

/**
 * Inserts discovered URLs (job row locked), in one statement. New URLs fill the free `limit` slots as
 * `backlog`; the rest become `excess` (at most `limit` of them), promoted when a failed page frees a
 * slot. URLs seen before keep their row; a pending one takes the smaller depth. Robots-blocked and
 * skipped URLs get their own rows (listed by the errors endpoint once each).
 * @returns the number of new backlog rows
 */
export async function insertDiscovered(tx: Queryable, job: LockedJob, d: Discovery): Promise<number> {
  const byKey = new Map<string, Candidate>();
  for (const c of d.accept) {
    const prior = byKey.get(c.key);
    if (!prior || c.depth < prior.depth) byKey.set(c.key, c);
  }
  let added = 0;
  if (byKey.size > 0) {
    const rows = [...byKey.values()];
    const [{ r }] = await tx.query<{ r: [number, number] }>('select crawl_insert_discovered($1, $2, $3, $4, $5, $6, $7) as r', [
      job.id, rows.map((c) => c.key), rows.map(() => newId()), rows.map((c) => c.url), rows.map((c) => c.sourceUrl), rows.map((c) => c.depth),
      rows.map((c) => (c.external ? 1 : 0)),
    ]);
    const [a, o] = r;
    added = a;
    job.accepted += a;
    job.excess += o;
  }
  await recordBlocked(tx, job.id, d);
  return added;
}

/**
 * Records robots-blocked and skipped URLs of a discovery (one row each, listed by the errors
 * endpoint). Needs no lock: these rows never count toward `limit`.
 */
export async function recordBlocked(db: Queryable, jobId: string, d: Pick<Discovery, 'robots' | 'skipped'>): Promise<void> {
  if (d.robots.length > 0) {
    await insertRows(db, jobId, d.robots.map((r) => ({ ...r, sourceUrl: r.url, depth: 0, external: false })), 'robots');
  }
  for (const s of d.skipped) {
    await db.query(
      `insert into crawl_urls (job_id, url_key, id, url, source_url, status, error_code, error) values ($1, $2, $3, $4, $4, 'skipped', $5, $6)
       on conflict do nothing`,
      [jobId, s.key, newId(), s.url, s.code, s.error],
    );
  }
}

async function insertRows(tx: Queryable, jobId: string, rows: Candidate[], status: string): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx.query(
    `insert into crawl_urls (job_id, url_key, id, url, source_url, depth, external, status)
     select $1, k, i, u, s, d, e = 1, $7 from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $8::int[]) as x(k, i, u, s, d, e)
     on conflict do nothing returning 1`,
    [jobId, rows.map((r) => r.key), rows.map(() => newId()), rows.map((r) => r.url), rows.map((r) => r.sourceUrl), rows.map((r) => r.depth), status, rows.map((r) => (r.external ? 1 : 0))],
  );
  return inserted.length;
}

/** Result of `advance`: rows to queue, and how many rows are still pending (backlog, queued, active). */
export interface Advance {
  items: QueueItem[];
  pending: number;
}

/**
 * Moves backlog rows to `queued` up to the crawl's concurrency (job row locked), breadth first, in one
 * statement that also counts what is still pending.
 * @returns the rows to add to the queue once the transaction commits, and the pending count
 */
export async function advance(tx: Queryable, job: LockedJob): Promise<Advance> {
  if (job.state !== 'running') return { items: [], pending: 0 };
  const [{ r }] = await tx.query<{ r: AdvanceRow }>('select crawl_advance($1) as r', [job.id]);
  return advanceOf(job.id, r);
}

/** What `crawl_advance` (SQL, migration 0003_crawl_functions) returns. */
export interface AdvanceRow {
  running: boolean;
  items: [string, number, number][];
  pending: number;
  delayMs: number;
  finished: number;
}

export function advanceOf(jobId: string, r: AdvanceRow): Advance {
  const paced = r.delayMs > 0 && r.finished > 0;
  return {
    pending: r.pending,
    items: r.items.map(([rowId, enqueue, attempts]) => ({
      jobId,
      rowId,
      enqueue,
      delayMs: paced ? r.delayMs : attempts > 0 ? Math.min(10_000, 1000 * attempts) : 0,
    })),
  };
}

/** `advance`, for callers that only need the rows to queue. */
export async function promote(tx: Queryable, job: LockedJob): Promise<QueueItem[]> {
  return (await advance(tx, job)).items;
}

/** Lets one `excess` row into the backlog (a failed or dropped page freed its `limit` slot). */
export async function freeSlot(tx: Queryable, job: LockedJob): Promise<void> {
  const promoted = await tx.query(
    `update crawl_urls set status = 'backlog', updated_at = now() where job_id = $1 and url_key in (
       select url_key from crawl_urls where job_id = $1 and status = 'excess' order by depth, id limit 1
     ) returning 1`,
    [job.id],
  );
  const delta = promoted.length > 0 ? 0 : -1;
  await tx.query('update crawl_jobs set accepted = accepted + $2, excess = excess - $3, updated_at = now() where id = $1', [job.id, delta, promoted.length]);
  job.accepted += delta;
  job.excess -= promoted.length;
}

/** Counts of rows per status. */
export async function countByStatus(db: Queryable, jobId: string): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; n: number }>('select status, count(*) as n from crawl_urls where job_id = $1 group by status', [jobId]);
  const out: Record<string, number> = {};
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

/**
 * Counts of rows in `statuses`, and `done` from the crawl row's `done_count` (every completion raises
 * it in the statement that marks its page done: migrations 0006, 0010), in one statement (one
 * snapshot). The rows are counted through the (job_id, status) index, so a status poll of a large
 * crawl reads none of its done pages.
 * @param statuses statuses to count, without 'done'
 * @returns status -> count; statuses without rows are absent; `done` always present (0 when the job has no crawl row)
 */
export async function countOpenByStatus(db: Queryable, jobId: string, statuses: readonly string[]): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; n: number }>(
    `select status, count(*) as n from crawl_urls where job_id = $1 and status = any($2::text[]) group by status
     union all select 'done', done_count from crawl_jobs where id = $1`,
    [jobId, statuses],
  );
  const out: Record<string, number> = { done: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}
