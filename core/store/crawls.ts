/**
 * Crawl and batch scrape jobs in the database: creation (with the idempotency key and the first
 * webhook event in one transaction), reading a job with its counters, paging its documents in
 * completion order, its error records, the active list, cancellation and completion. The frontier
 * rows themselves are in crawl-urls.ts. Every write that changes a job locks its `crawl_jobs` row first.
 */
import type { Database, Queryable } from '../db/client.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';
import { RETENTION_MS } from './documents.ts';
import { advance, countByStatus, lockJob, promote, type LockedJob, type QueueItem } from './crawl-urls.ts';

export type JobKind = 'crawl' | 'batch_scrape';
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

/** Event name prefix of a job kind (compat.md §17). */
export const eventPrefix = (kind: JobKind) => (kind === 'crawl' ? 'crawl' : 'batch_scrape');

export interface NewJob {
  id: string;
  teamId: string;
  kind: JobKind;
  /** Start URL (crawl) or first URL (batch), shown by the active list. */
  url: string;
  /** What `/v2/crawl/active` shows as `options`. */
  publicOptions: Record<string, unknown>;
  /** Everything workers need (crawler options, resolved scrape options, webhook ...). */
  options: Record<string, unknown>;
  concurrency: number;
  delayMs: number;
  urlLimit: number;
  zeroDataRetention: boolean;
  webhook?: WebhookSpec;
  idempotencyKey?: string;
  /** Batch: URLs to scrape (url fetched, sourceUrl exactly as given). */
  urls?: { url: string; sourceUrl: string }[];
}

/**
 * Claims an idempotency key for `jobId` (compat.md §6: reuse by the same team within 24 h -> 409).
 * @throws TrawlError CONFLICT
 */
async function claimIdempotencyKey(tx: Queryable, teamId: string, key: string, jobId: string): Promise<void> {
  const rows = await tx.query(
    `insert into idempotency_keys (team_id, key, job_id) values ($1, $2, $3)
     on conflict (team_id, key) do update set job_id = excluded.job_id, created_at = now()
       where idempotency_keys.created_at < now() - interval '24 hours'
     returning job_id`,
    [teamId, key, jobId],
  );
  if (rows.length === 0) throw new TrawlError('CONFLICT', 'Idempotency key already used');
}

/** Inserts batch URL rows (url_key = ordinal) starting at `first`. */
export async function insertBatchUrls(tx: Queryable, jobId: string, first: number, urls: { url: string; sourceUrl: string }[]): Promise<void> {
  if (urls.length === 0) return;
  await tx.query(
    `insert into crawl_urls (job_id, url_key, id, url, source_url, depth, status)
     select $1, k, i, u, s, 0, 'backlog' from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as x(k, i, u, s)`,
    [jobId, urls.map((_, i) => String(first + i)), urls.map(() => newId()), urls.map((u) => u.url), urls.map((u) => u.sourceUrl)],
  );
}

/**
 * Creates a crawl or batch job: `jobs` row (status `scraping`), `crawl_jobs` row, idempotency key,
 * batch URLs and the `*.started` event, in one transaction.
 * @returns queue items to add (batch: the first window of URLs)
 * @throws TrawlError CONFLICT for a reused idempotency key
 */
export async function createJob(db: Database, job: NewJob): Promise<QueueItem[]> {
  return db.transaction(async (tx) => {
    if (job.idempotencyKey) await claimIdempotencyKey(tx, job.teamId, job.idempotencyKey, job.id);
    await tx.query(
      `insert into jobs (id, team_id, kind, status, url, options, zero_data_retention) values ($1, $2, $3, 'scraping', $4, $5, $6)`,
      [job.id, job.teamId, job.kind, job.url, job.publicOptions, job.zeroDataRetention],
    );
    const urls = job.urls ?? [];
    await tx.query(
      `insert into crawl_jobs (id, team_id, kind, options, concurrency, delay_ms, url_limit, accepted, next_ordinal, kickoff)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9)`,
      [job.id, job.teamId, job.kind, job.options, job.concurrency, job.delayMs, job.urlLimit, urls.length, job.kind === 'crawl' ? 'pending' : 'done'],
    );
    await insertBatchUrls(tx, job.id, 0, urls);
    await recordEvent(tx, job.webhook, { type: `${eventPrefix(job.kind)}.started`, jobId: job.id, teamId: job.teamId, success: true });
    const locked = await lockJob(tx, job.id);
    return locked ? promote(tx, locked) : [];
  });
}

/** A job as the status endpoints read it. */
export interface JobView {
  id: string;
  teamId: string;
  kind: JobKind;
  status: JobStatus;
  url: string;
  options: Record<string, any>;
  publicOptions: Record<string, unknown>;
  error?: { message?: string };
  creditsUsed: number;
  doneCount: number;
  createdAt: Date;
  completedAt?: Date;
  expiresAt?: Date;
}

/** Reads a crawl or batch job, or undefined. */
export async function getJob(db: Queryable, id: string): Promise<JobView | undefined> {
  const rows = await db.query<Record<string, any>>(
    `select j.id, j.team_id, j.kind, j.status, j.url, j.options as public_options, j.error, j.created_at, j.completed_at, j.expires_at,
            c.options, c.credits_used, c.done_count
     from jobs j join crawl_jobs c on c.id = j.id where j.id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    teamId: r.team_id,
    kind: r.kind,
    status: r.status,
    url: r.url,
    options: r.options,
    publicOptions: r.public_options,
    error: r.error ?? undefined,
    creditsUsed: Number(r.credits_used),
    doneCount: Number(r.done_count),
    createdAt: new Date(r.created_at),
    completedAt: r.completed_at ? new Date(r.completed_at) : undefined,
    expiresAt: r.expires_at ? new Date(r.expires_at) : undefined,
  };
}

/** The five counters of compat.md §8, plus failed and robots-blocked counts; zeros when terminal. */
export interface JobCounters {
  total: number;
  completed: number;
  active: number;
  queued: number;
  backlog: number;
  failed: number;
  robotsBlocked: number;
}

export async function jobCounters(db: Queryable, job: Pick<JobView, 'id' | 'status'>): Promise<JobCounters> {
  const c = await countByStatus(db, job.id);
  const terminal = job.status !== 'scraping';
  const completed = c.done ?? 0;
  const active = terminal ? 0 : (c.active ?? 0);
  const queued = terminal ? 0 : (c.queued ?? 0);
  const backlog = terminal ? 0 : (c.backlog ?? 0);
  return { total: completed + active + queued + backlog, completed, active, queued, backlog, failed: c.failed ?? 0, robotsBlocked: c.robots ?? 0 };
}

/**
 * Documents of a job in completion order from `skip`: up to `limit`, else up to `maxBytes` of
 * serialized documents (at least one).
 * @returns the serialized documents, each exactly as stored
 */
export async function documentsPage(db: Queryable, jobId: string, skip: number, limit: number | undefined, maxBytes: number): Promise<string[]> {
  const out: string[] = [];
  let bytes = 0;
  let after = skip;
  const chunk = 100;
  for (;;) {
    const want = limit === undefined ? chunk : Math.min(chunk, limit - out.length);
    if (want <= 0) break;
    const rows = await db.query<{ seq: number; body: string; size_bytes: number }>(
      `select c.seq, d.body, d.size_bytes from crawl_urls c join documents d on d.id = c.id
       where c.job_id = $1 and c.seq > $2 order by c.seq limit $3`,
      [jobId, after, want],
    );
    for (const r of rows) {
      if (limit === undefined && out.length > 0 && bytes + r.size_bytes > maxBytes) return out;
      out.push(r.body);
      bytes += r.size_bytes;
      after = r.seq;
    }
    if (rows.length < want) break;
  }
  return out;
}

/** Error records (compat.md §7.4): failed and skipped pages, and robots-blocked URLs. */
export interface ErrorRecord {
  id: string;
  timestamp: string;
  url: string;
  code?: string;
  error: string;
}

export async function jobErrors(db: Queryable, jobId: string): Promise<{ errors: ErrorRecord[]; robotsBlocked: string[] }> {
  const rows = await db.query<Record<string, any>>(
    `select id, url, status, error_code, error, updated_at from crawl_urls
     where job_id = $1 and status in ('failed', 'skipped', 'robots') order by updated_at, id`,
    [jobId],
  );
  const errors: ErrorRecord[] = [];
  const robotsBlocked: string[] = [];
  for (const r of rows) {
    if (r.status === 'robots') robotsBlocked.push(r.url);
    else {
      errors.push({
        id: r.id,
        timestamp: new Date(r.updated_at).toISOString(),
        url: r.url,
        ...(r.error_code ? { code: r.error_code } : {}),
        error: r.error ?? 'Unknown error',
      });
    }
  }
  return { errors, robotsBlocked };
}

/** Running crawls of a team (compat.md §7.5). */
export async function activeJobs(db: Queryable, teamId: string, kind: JobKind): Promise<Record<string, any>[]> {
  return db.query(
    `select id, team_id, url, created_at, options from jobs where team_id = $1 and kind = $2 and status = 'scraping' order by created_at`,
    [teamId, kind],
  );
}

/**
 * Marks a running job finished when nothing is pending (job row locked): `completed`, or `failed`
 * for a crawl whose start URL failed with nothing scraped. Sets retention (24 h from now) on the job
 * and its documents and records the `*.completed` / `*.failed` event.
 * @returns the new status, or undefined when the job is not finished
 */
export async function finishIfDone(tx: Queryable, job: LockedJob, pending?: number): Promise<JobStatus | undefined> {
  if (job.state !== 'running' || job.kickoff !== 'done') return undefined;
  const [{ n }] = pending !== undefined ? [{ n: pending }] : await tx.query<{ n: number }>(
    `select count(*) as n from crawl_urls where job_id = $1 and status in ('backlog', 'queued', 'active')`,
    [job.id],
  );
  if (Number(n) > 0) return undefined;
  const [cj] = await tx.query<{ start_error: any; credits_used: number; done_count: number }>(
    'select start_error, credits_used, done_count from crawl_jobs where id = $1',
    [job.id],
  );
  const failed = job.kind === 'crawl' && cj.done_count === 0 && cj.start_error;
  const status: JobStatus = failed ? 'failed' : 'completed';
  const error = failed ? { message: String(cj.start_error.message ?? 'The crawl could not start') } : null;
  await tx.query(`update crawl_jobs set state = 'finished', updated_at = now() where id = $1`, [job.id]);
  await tx.query(
    `update jobs set status = $2, error = $3, credits_used = $4, completed_at = now(), updated_at = now(),
       expires_at = now() + ($5::bigint * interval '1 millisecond') where id = $1`,
    [job.id, status, error, cj.credits_used, RETENTION_MS],
  );
  await tx.query(`update documents set expires_at = now() + ($2::bigint * interval '1 millisecond') where job_id = $1`, [job.id, RETENTION_MS]);
  job.state = 'finished';
  await recordEvent(tx, job.options.webhook, {
    type: `${eventPrefix(job.kind)}.${status}`,
    jobId: job.id,
    teamId: job.teamId,
    success: !failed,
    ...(error ? { error: error.message } : {}),
  });
  return status;
}

/**
 * Queues what the concurrency window allows and finishes the job when nothing is pending (job row
 * locked): what every state change of a crawl ends with.
 */
export async function advanceOrFinish(tx: Queryable, job: LockedJob): Promise<{ items: QueueItem[]; finished?: JobStatus }> {
  const a = await advance(tx, job);
  return { items: a.items, finished: a.pending === 0 ? await finishIfDone(tx, job, 0) : undefined };
}

/**
 * Cancels a running job (compat.md §7.3): status `cancelled` at once; queued and active pages become
 * failed with SCRAPE_JOB_CANCELLED, backlog rows are dropped; finished pages stay.
 * @returns the queue job ids of pages to cancel in the queue
 * @throws TrawlError CONFLICT when the job is already finished
 */
export async function cancelJob(db: Database, id: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const job = await lockJob(tx, id);
    if (!job) throw new TrawlError('JOB_NOT_FOUND', 'Job not found');
    if (job.state !== 'running') {
      const [j] = await tx.query<{ status: string }>('select status from jobs where id = $1', [id]);
      if (j?.status === 'cancelled') return [];
      throw new TrawlError('CONFLICT', job.kind === 'crawl' ? 'Crawl is already completed' : 'Batch scrape is already completed');
    }
    const pending = await tx.query<{ id: string; enqueues: number }>(
      `update crawl_urls set status = 'failed', error_code = 'SCRAPE_JOB_CANCELLED', error = 'The crawl was cancelled before this page finished.',
         lease_until = null, updated_at = now()
       where job_id = $1 and status in ('queued', 'active') returning id, enqueues`,
      [id],
    );
    await tx.query(`update crawl_urls set status = 'dropped', updated_at = now() where job_id = $1 and status in ('backlog', 'excess')`, [id]);
    await tx.query(`update crawl_jobs set state = 'cancelled', updated_at = now() where id = $1`, [id]);
    await tx.query(
      `update jobs set status = 'cancelled', credits_used = (select credits_used from crawl_jobs where id = $1), completed_at = now(), updated_at = now(),
         expires_at = now() + ($2::bigint * interval '1 millisecond') where id = $1`,
      [id, RETENTION_MS],
    );
    await tx.query(`update documents set expires_at = now() + ($2::bigint * interval '1 millisecond') where job_id = $1`, [id, RETENTION_MS]);
    await recordEvent(tx, job.options.webhook, { type: `${eventPrefix(job.kind)}.cancelled`, jobId: id, teamId: job.teamId, success: true });
    return pending.map((p) => `${p.id}.${p.enqueues}`);
  });
}
