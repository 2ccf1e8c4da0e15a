/**
 * Crawl and batch scrape jobs in the database, the writes: creation (with the idempotency key and the
 * first webhook event in one transaction), completion and cancellation. Reads are in crawl-reads.ts,
 * the frontier rows in crawl-urls.ts. Every write that changes a job locks its `crawl_jobs` row first.
 */
import type { Database, Queryable } from '../db/client.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';
import { RETENTION_MS } from './documents.ts';
import { advance, lockJob, promote, type LockedJob, type QueueItem } from './crawl-urls.ts';

export * from './crawl-reads.ts';

import type { JobKind, JobStatus } from './crawl-reads.ts';
import { auditMetadataOf, recordActivity } from '../audit/activity.ts';

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
    // Zero data retention: the start URL lives only in what the run needs (crawl_jobs.options, the
    // frontier rows) and is forgotten when the run ends (forgetUrls); the jobs row and the active
    // list never hold it.
    const { url: _url, urls: _urls, ...publicOptions } = job.publicOptions;
    await tx.query(
      `insert into jobs (id, team_id, kind, status, url, options, zero_data_retention) values ($1, $2, $3, 'scraping', $4, $5, $6)`,
      [job.id, job.teamId, job.kind, job.zeroDataRetention ? null : job.url, job.zeroDataRetention ? publicOptions : job.publicOptions, job.zeroDataRetention],
    );
    await recordActivity(tx, {
      id: job.id, teamId: job.teamId, kind: job.kind as 'crawl' | 'batch_scrape', status: 'scraping', url: job.url, zeroDataRetention: job.zeroDataRetention,
      auditMetadata: auditMetadataOf(job.publicOptions) ?? auditMetadataOf(job.publicOptions.scrapeOptions),
    });
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

/**
 * Forgets the URLs a zero data retention job kept while it ran (issue 17 "zero data retention
 * everywhere"): the frontier rows keep their ids, states and error codes but no URL (the error text
 * loses its URLs too), the robots.txt copies go, and the stored options lose the start URL. Called in
 * the transaction that ends the job (finished or cancelled); a no-op for other jobs.
 */
export async function forgetUrls(tx: Queryable, job: Pick<LockedJob, 'id' | 'options'>): Promise<void> {
  if (!job.options.zeroDataRetention) return;
  await tx.query(
    `update crawl_urls set url = '', source_url = '', url_key = id,
       error = regexp_replace(error, '[a-z][a-z0-9+.-]*://[^\s"'')<>]+', '[url]', 'gi')
     where job_id = $1`,
    [job.id],
  );
  await tx.query('delete from crawl_robots where job_id = $1', [job.id]);
  await tx.query(
    `update crawl_jobs set options = options #- '{crawler,url}' #- '{crawler,sourceURL}',
       start_error = case when start_error is null then null else jsonb_build_object('message', regexp_replace(start_error->>'message', '[a-z][a-z0-9+.-]*://[^\s"'')<>]+', '[url]', 'gi')) end
     where id = $1`,
    [job.id],
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
  const message = String(cj.start_error?.message ?? 'The crawl could not start');
  const error = failed ? { message: job.options.zeroDataRetention ? message.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"')<>]+/gi, '[url]') : message } : null;
  await forgetUrls(tx, job);
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
    await forgetUrls(tx, job);
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
