/**
 * The crawl reconciler: a periodic repair pass run by every worker process. The database is the
 * source of truth of each crawl and the queue may lose messages (Redis restarted without persistence,
 * a worker killed mid-page), so for each running crawl it:
 * - gives pages whose worker stopped renewing its lease back to the backlog (failed after
 *   MAX_PAGE_ATTEMPTS tries);
 * - re-sends queued pages that are no longer in the queue (queue idle, or queued far too long);
 * - reruns a kickoff that never ran or whose process died;
 * - fills the crawl's concurrency window and finishes crawls with nothing left to do.
 * It also sends due webhook retries and purges crawl state 24 h after completion. Every step is a
 * conditional update under the crawl's row lock, so several processes may run it at once.
 */
import type { Services } from '../services.ts';
import { RETENTION_MS } from '../store/documents.ts';
import { freeSlot, lockJob, promote, type QueueItem } from '../store/crawl-urls.ts';
import { finishIfDone } from '../store/crawls.ts';
import { dispatchDue } from '../webhooks/deliver.ts';
import { CRAWL_QUEUE, enqueueItems } from './enqueue.ts';
import { failKickoff, runKickoff } from './kickoff.ts';
import { MAX_PAGE_ATTEMPTS } from './page-store.ts';
import { webhookDeps } from './webhook-deps.ts';

/** How often the reconciler runs, ms. */
export const RECONCILE_MS = 2_000;
/** A queued page older than this is re-sent when the queue has nothing waiting, ms. */
const LOST_WHEN_IDLE_MS = 3_000;
/** A queued page older than this (plus the crawl's delay) is re-sent regardless, ms. */
const LOST_AFTER_MS = 120_000;
/** A kickoff not started this long after creation is run by the reconciler, ms. */
const KICKOFF_GRACE_MS = 5_000;
const PURGE_EVERY_MS = 10 * 60_000;

/** One reconcile pass over every running crawl. */
export async function reconcileOnce(services: Services): Promise<void> {
  const counts = await services.queue.counts(CRAWL_QUEUE).catch(() => undefined);
  const idle = counts !== undefined && counts.waiting + counts.delayed === 0;
  const jobs = await services.db.query<{ id: string; kickoff: string; stalled: boolean }>(
    `select id, kickoff,
       (kickoff = 'pending' and created_at < now() - ($1::int * interval '1 millisecond'))
         or (kickoff = 'running' and kickoff_lease < now()) as stalled
     from crawl_jobs where state = 'running'`,
    [KICKOFF_GRACE_MS],
  );
  for (const j of jobs) {
    if (j.stalled) {
      void runKickoff(services, j.id).catch((err) => {
        services.log.warn({ err, jobId: j.id }, 'crawl kickoff failed');
        return failKickoff(services, j.id, err).catch(() => {});
      });
    }
    const items = await repairJob(services, j.id, idle);
    if (items.length > 0) {
      services.log.info({ jobId: j.id, pages: items.length }, 'reconciler re-sent crawl pages');
      await enqueueItems(services, items);
    }
  }
  await dispatchDue(webhookDeps(services));
}

async function repairJob(services: Services, jobId: string, queueIdle: boolean): Promise<QueueItem[]> {
  return services.db.transaction(async (tx) => {
    const job = await lockJob(tx, jobId, true);
    if (!job || job.state !== 'running') return [];
    await tx.query(
      `update crawl_urls set status = 'backlog', lease_until = null, updated_at = now()
       where job_id = $1 and status = 'active' and lease_until < now() and attempts < $2`,
      [jobId, MAX_PAGE_ATTEMPTS],
    );
    const dead = await tx.query(
      `update crawl_urls set status = 'failed', error_code = 'SCRAPE_RETRY_LIMIT', lease_until = null, updated_at = now(),
         error = 'The page was tried ' || attempts || ' times and its worker stopped each time.'
       where job_id = $1 and status = 'active' and lease_until < now() and attempts >= $2 returning id`,
      [jobId, MAX_PAGE_ATTEMPTS],
    );
    for (const _ of dead) await freeSlot(tx, job);
    const staleMs = queueIdle ? LOST_WHEN_IDLE_MS + job.delayMs : LOST_AFTER_MS + job.delayMs;
    await tx.query(
      `update crawl_urls set status = 'backlog', updated_at = now()
       where job_id = $1 and status = 'queued' and enqueued_at < now() - ($2::int * interval '1 millisecond')`,
      [jobId, staleMs],
    );
    const items = await promote(tx, job);
    await finishIfDone(tx, job);
    return items;
  });
}

/** Deletes crawl state of jobs past their retention (documents are removed by the scheduler). */
export async function purgeExpired(services: Services): Promise<void> {
  const expired = `select id from jobs where kind in ('crawl', 'batch_scrape') and expires_at < now() - ($1::bigint * interval '1 millisecond')`;
  // Rows stay a little past expiry so "Job expired" (not "Job not found") is answered for a while.
  for (const table of ['crawl_urls', 'crawl_robots', 'webhook_deliveries']) {
    await services.db.query(`delete from ${table} where job_id in (${expired})`, [RETENTION_MS]);
  }
  await services.db.query(`delete from crawl_jobs where id in (${expired})`, [RETENTION_MS]);
  await services.db.query(`delete from idempotency_keys where created_at < now() - interval '24 hours'`);
}

/**
 * Starts the reconciler loop of this process.
 * @returns a function that stops it (waits for a running pass)
 */
export function startReconciler(services: Services, everyMs = RECONCILE_MS): () => Promise<void> {
  const log = services.log.child({ component: 'crawl-reconciler' });
  let stopped = false;
  let running: Promise<void> | undefined;
  let lastPurge = 0;
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      try {
        await reconcileOnce(services);
        if (Date.now() - lastPurge > PURGE_EVERY_MS) {
          lastPurge = Date.now();
          await purgeExpired(services);
        }
      } catch (err) {
        if (!stopped) log.warn({ err }, 'crawl reconcile failed');
      } finally {
        running = undefined;
      }
    })();
  };
  const timer = setInterval(tick, everyMs);
  timer.unref?.();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
