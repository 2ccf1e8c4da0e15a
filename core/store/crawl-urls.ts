/**
 * The crawl frontier in the database: one `crawl_urls` row per distinct URL of a crawl (or per URL of
 * a batch). Every state change of a crawl runs in a transaction that first locks the `crawl_jobs` row
 * (`lockJob`), so the counters (`accepted` for `limit`, `done_count` for completion order) stay exact
 * when several workers in several processes share one crawl. Rows move
 * backlog -> queued -> active -> done | failed; the queue only carries "run row X, enqueue n" messages,
 * and a claim succeeds only for the current enqueue number, so a duplicated or stale queue message
 * never scrapes a page twice.
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
    const free = Math.max(0, job.urlLimit - job.accepted);
    const room = Math.max(0, job.urlLimit - job.excess);
    const [r] = await tx.query<{ added: number; overflow: number }>(
      `with c as (
         select k, i, u, s, d, e, o from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[]) with ordinality as x(k, i, u, s, d, e, o)
       ),
       lowered as (
         update crawl_urls w set depth = c.d from c
         where w.job_id = $1 and w.url_key = c.k and w.depth > c.d and w.status in ('backlog', 'queued', 'excess') returning 1
       ),
       fresh as (
         select c.*, row_number() over (order by c.o) as rn from c
         where not exists (select 1 from crawl_urls w where w.job_id = $1 and w.url_key = c.k)
       ),
       ins as (
         insert into crawl_urls (job_id, url_key, id, url, source_url, depth, external, status)
         select $1, k, i, u, s, d, e = 1, case when rn <= $8 then 'backlog' else 'excess' end from fresh where rn <= $8 + $9
         on conflict do nothing returning status
       ),
       counted as (
         select count(*) filter (where status = 'backlog')::int as added, count(*) filter (where status = 'excess')::int as overflow from ins
       ),
       upd as (
         update crawl_jobs set accepted = accepted + (select added from counted), excess = excess + (select overflow from counted), updated_at = now()
         where id = $1 and (select added + overflow from counted) > 0
       )
       select added, overflow from counted`,
      [job.id, rows.map((c) => c.key), rows.map(() => newId()), rows.map((c) => c.url), rows.map((c) => c.sourceUrl), rows.map((c) => c.depth),
        rows.map((c) => (c.external ? 1 : 0)), free, room],
    );
    added = r.added;
    job.accepted += r.added;
    job.excess += r.overflow;
  }
  if (d.robots.length > 0) {
    await insertRows(tx, job.id, d.robots.map((r) => ({ ...r, sourceUrl: r.url, depth: 0, external: false })), 'robots');
  }
  for (const s of d.skipped) {
    await tx.query(
      `insert into crawl_urls (job_id, url_key, id, url, source_url, status, error_code, error) values ($1, $2, $3, $4, $4, 'skipped', $5, $6)
       on conflict do nothing`,
      [job.id, s.key, newId(), s.url, s.code, s.error],
    );
  }
  return added;
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
  const [r] = await tx.query<{ inflight: number; backlog: boolean; items: [string, number, number][] | string }>(
    `with inflight as (
       select count(*)::int as n from crawl_urls where job_id = $1 and status in ('queued', 'active')
     ),
     picked as (
       select url_key from crawl_urls where job_id = $1 and status = 'backlog' order by depth, id
       limit greatest(0, $2::int - (select n from inflight))
     ),
     upd as (
       update crawl_urls set status = 'queued', enqueues = enqueues + 1, enqueued_at = now(), updated_at = now()
       where job_id = $1 and url_key in (select url_key from picked) returning id, enqueues, attempts
     )
     select (select n from inflight) as inflight,
       exists (select 1 from crawl_urls where job_id = $1 and status = 'backlog') as backlog,
       coalesce((select json_agg(json_build_array(id, enqueues, attempts)) from upd), '[]'::json) as items`,
    [job.id, job.concurrency],
  );
  const paced = job.delayMs > 0 && job.finishedCount > 0;
  const items = (typeof r.items === 'string' ? JSON.parse(r.items) : r.items) as [string, number, number][];
  return {
    pending: r.inflight + (r.backlog ? 1 : 0),
    items: items.map(([rowId, enqueue, attempts]) => ({
      jobId: job.id,
      rowId,
      enqueue,
      delayMs: paced ? job.delayMs : attempts > 0 ? Math.min(10_000, 1000 * attempts) : 0,
    })),
  };
}

/** `advance`, for callers that only need the rows to queue. */
export async function promote(tx: Queryable, job: LockedJob): Promise<QueueItem[]> {
  return (await advance(tx, job)).items;
}

/**
 * Marks a claimed row done as page `job.doneCount + 1` and stores its document and counters, in one
 * statement (job row locked).
 * @returns false when the claim is no longer this worker's (nothing changed)
 */
export async function markDone(
  tx: Queryable,
  job: LockedJob,
  claim: ClaimedUrl,
  doc: { teamId: string; url: string; statusCode: number; body: string; credits: number; store: boolean },
): Promise<boolean> {
  const seq = job.doneCount + 1;
  const [r] = await tx.query<{ n: number }>(
    `with upd as (
       update crawl_urls set status = 'done', seq = $4, lease_until = null, error_code = null, error = null, updated_at = now()
       where id = $2 and status = 'active' and attempts = $3 returning id
     ),
     doc as (
       insert into documents (id, job_id, team_id, url, source_url, status_code, body, size_bytes)
       select id, $1, $5, $6, $7, $8, $9, $10 from upd where $11::int = 1 on conflict (id) do nothing
     ),
     cj as (
       update crawl_jobs set done_count = $4, finished_count = finished_count + 1, credits_used = credits_used + $12, updated_at = now()
       where id = $1 and exists (select 1 from upd)
     )
     select count(*)::int as n from upd`,
    [job.id, claim.id, claim.attempt, seq, doc.teamId, doc.url, claim.sourceUrl, doc.statusCode, doc.body, Buffer.byteLength(doc.body), doc.store ? 1 : 0, doc.credits],
  );
  if (r.n === 0) return false;
  job.doneCount = seq;
  job.finishedCount += 1;
  return true;
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

/** Counts of rows per status. */
export async function countByStatus(db: Queryable, jobId: string): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; n: number }>('select status, count(*) as n from crawl_urls where job_id = $1 group by status', [jobId]);
  const out: Record<string, number> = {};
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}
