/**
 * Reading an extract (compat.md §12): access rules (unknown or malformed id -> 404 "Extract job not
 * found", another team's -> 403, past retention -> 404 "Job expired"), the status body, and the
 * repair of a lost job. A job whose worker died (SIGKILL, out of memory) stays `processing` in its
 * row; BullMQ hands it to another worker after its lock expires and the in-process queue resumes it
 * on restart, which both end it. When nothing can, a status read ends it instead: the queue's own
 * failure (JOB_INTERRUPTED after a second interruption), a job the queue lost (a Redis restart), or
 * a job still not ended `lostGraceMs` after its `timeout` (EXTRACT_TIMEOUT). So no job is shown
 * `processing` past its timeout plus that grace. The scheduler's sweep (`sweepExtracts`) ends such
 * jobs too when nobody reads them (so `extract.failed` is sent), and drops results past retention.
 */
import type { ResolvedConfig } from '../config.ts';
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { isWaitTimeout } from '../queue/shared.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { webhookDeps } from '../crawl/webhook-deps.ts';
import { EXTRACT_RETENTION_MS, endExtractJob, getExtractJob, tokensOf, type ExtractJob } from './store.ts';

/**
 * Time after an extract's timeout before a status read declares it lost, ms: the queue's job lock
 * (`config.queue.lockMs`, TRAWL_QUEUE_LOCK_MS, default 30 000), the time BullMQ takes to hand a dead
 * worker's job to another one, which would end it.
 */
export const lostGraceMs = (config: Pick<ResolvedConfig, 'queue'>): number => config.queue.lockMs;
/** A job the queue does not know this long after creation was lost by the queue, ms. */
const QUEUE_SETTLE_MS = 30_000;

/**
 * The caller's extract job.
 * @throws TrawlError JOB_NOT_FOUND ("Extract job not found"), FORBIDDEN, JOB_EXPIRED
 */
export async function extractForTeam(services: Pick<Services, 'db'>, id: string, teamId: string): Promise<ExtractJob> {
  const job = isUuid(id) ? await getExtractJob(services.db, id.toLowerCase()) : undefined;
  if (!job) throw new TrawlError('JOB_NOT_FOUND', 'Extract job not found');
  if (job.teamId !== teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
  if (job.expiresAt && job.expiresAt.getTime() < Date.now()) throw new TrawlError('JOB_EXPIRED', 'Job expired');
  return job;
}

/** Why a `processing` job can no longer end by itself, or undefined while it may. */
async function lostBecause(services: Pick<Services, 'queue' | 'config'>, job: ExtractJob): Promise<TrawlError | undefined> {
  const age = Date.now() - job.createdAt.getTime();
  if (age > job.options.timeoutMs + lostGraceMs(services.config)) {
    await services.queue.cancel(job.id).catch(() => false);
    return new TrawlError(
      'EXTRACT_TIMEOUT',
      `The extract did not finish within its timeout of ${job.options.timeoutMs} ms: the worker running it stopped, or no worker took it. Start it again.`,
    );
  }
  try {
    await services.queue.waitFor(job.id, 1);
    return undefined; // finished just now: the row says how
  } catch (e) {
    const error = TrawlError.wrap(e);
    if (isWaitTimeout(error) || error.code === 'SCRAPE_JOB_CANCELLED') return undefined;
    if (error.code === 'JOB_NOT_FOUND') {
      return age > QUEUE_SETTLE_MS
        ? new TrawlError('JOB_INTERRUPTED', 'The extract was lost by the queue (it restarted without its jobs) before a worker finished it. Start it again.')
        : undefined;
    }
    return error;
  }
}

/** The job as it stands, a lost one ended as failed (see the header). */
export async function settleExtract(services: Pick<Services, 'db' | 'queue' | 'log' | 'config'>, job: ExtractJob): Promise<ExtractJob> {
  if (job.status !== 'processing') return job;
  const lost = await lostBecause(services, job);
  if (lost) {
    const ended = await endExtractJob(services.db, job.id, { status: 'failed', error: lost.toJSON() });
    if (ended?.options.webhook) kickJob(webhookDeps(services), job.id);
  }
  return (await getExtractJob(services.db, job.id)) ?? job;
}

/**
 * The body of `GET /v2/extract/{id}` (compat.md §12): `{success: true, id, status, data?, error?,
 * warning?, sources?, invalidURLs?, expiresAt, tokensUsed, creditsUsed}`. `success` is true for a
 * failed job too (compat.md §21 item 2); `tokensUsed` of a running job counts the calls so far.
 */
export async function extractStatusBody(services: Pick<Services, 'db'>, job: ExtractJob): Promise<Record<string, unknown>> {
  const expiresAt = job.expiresAt ?? new Date(job.createdAt.getTime() + EXTRACT_RETENTION_MS);
  const body: Record<string, unknown> = { success: true, id: job.id, status: job.status };
  const r = job.result;
  if (job.status === 'completed' && r) {
    if (!r.dropped) body.data = r.data;
    if (job.options.showSources && r.sources && !r.dropped) body.sources = r.sources;
  }
  const warnings = [r?.warning, r?.dropped ? 'Zero data retention: the data was returned once, by an earlier read, and is not kept.' : undefined].filter(Boolean);
  if (warnings.length) body.warning = warnings.join(' ');
  if (job.status === 'failed' && job.error) {
    body.error = job.error.message;
    body.code = job.error.code;
  }
  if (job.options.invalidURLs?.length) body.invalidURLs = job.options.invalidURLs;
  body.expiresAt = expiresAt.toISOString();
  body.tokensUsed = r?.tokensUsed ?? (await tokensOf(services.db, job.id));
  body.creditsUsed = job.creditsUsed;
  return body;
}

/**
 * The scheduler's extract housekeeping: ends every job still `processing` `lostGraceMs` after its
 * timeout (EXTRACT_TIMEOUT, `extract.failed` sent), and deletes the data of jobs past their 24 h
 * retention (reads answer "Job expired" from then on).
 * @returns how many jobs were ended
 */
export async function sweepExtracts(services: Pick<Services, 'db' | 'queue' | 'log' | 'config'>): Promise<number> {
  const lost = await services.db.query<{ id: string }>(
    `select id from jobs where kind = 'extract' and status = 'processing'
       and created_at < now() - ((coalesce((options->>'timeoutMs')::bigint, 0) + $1) * interval '1 millisecond') limit 100`,
    [lostGraceMs(services.config)],
  );
  let ended = 0;
  for (const { id } of lost) {
    const job = await getExtractJob(services.db, id);
    if (job && (await settleExtract(services, job)).status !== 'processing') ended++;
  }
  await services.db.query(`update jobs set result = null where kind = 'extract' and expires_at < now() and result is not null`);
  return ended;
}
