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
 *
 * Cadence: every RECONCILE_MS while a crawl runs or a webhook delivery is pending; otherwise the
 * process is idle and the next pass comes after IDLE_RECONCILE_MS (or when the next webhook retry is
 * due, if sooner), so an idle server makes no database round trips every few seconds (issue 22). Crawl
 * work handled in this process (`wakeReconciler`, called by the crawl queue handler) brings the short
 * cadence back at once.
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

/** How often the reconciler runs while there is crawl or webhook work, ms. */
export const RECONCILE_MS = 2_000;
/** How often it runs while there is none (a safety net for work it was not woken for), ms. */
export const IDLE_RECONCILE_MS = 30_000;
/** A queued page older than this is re-sent when the queue has nothing waiting, ms. */
const LOST_WHEN_IDLE_MS = 3_000;
/** A queued page older than this (plus the crawl's delay) is re-sent regardless, ms. */
const LOST_AFTER_MS = 120_000;
/** A kickoff not started this long after creation is run by the reconciler, ms. */
const KICKOFF_GRACE_MS = 5_000;
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * One reconcile pass over every running crawl.
 * @returns ms until the next pass is needed: RECONCILE_MS while a crawl runs or a webhook delivery
 *   is due, else until the next pending webhook retry, at most IDLE_RECONCILE_MS
 */
export async function reconcileOnce(services: Services): Promise<number> {
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
  const dispatched = await dispatchDue(webhookDeps(services));
  if (jobs.length > 0 || dispatched > 0) return RECONCILE_MS;
  const [next] = await services.db.query<{ ms: number | null }>(
    `select extract(epoch from min(next_attempt_at) - now()) * 1000 as ms from webhook_deliveries where status = 'pending'`,
  );
  const dueIn = next?.ms == null ? IDLE_RECONCILE_MS : Math.max(RECONCILE_MS, Math.ceil(Number(next.ms)));
  return Math.min(IDLE_RECONCILE_MS, dueIn);
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

const wakers = new WeakMap<Services, () => void>();

/** Brings this process's reconciler back to its short cadence (crawl work arrived). Cheap; no-op without one. */
export function wakeReconciler(services: Services): void {
  wakers.get(services)?.();
}

/**
 * Starts the reconciler loop of this process (cadence in the header).
 * @returns a function that stops it (waits for a running pass)
 */
export function startReconciler(services: Services, everyMs = RECONCILE_MS): () => Promise<void> {
  const log = services.log.child({ component: 'crawl-reconciler' });
  let stopped = false;
  let running: Promise<void> | undefined;
  let lastPurge = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle = false;
  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      let next = everyMs;
      try {
        next = Math.max(everyMs, await reconcileOnce(services));
        if (Date.now() - lastPurge > PURGE_EVERY_MS) {
          lastPurge = Date.now();
          await purgeExpired(services);
        }
      } catch (err) {
        if (!stopped) log.warn({ err }, 'crawl reconcile failed');
      } finally {
        running = undefined;
        idle = next > everyMs;
        schedule(next);
      }
    })();
  };
  wakers.set(services, () => {
    if (idle && !running) {
      idle = false;
      schedule(everyMs);
    }
  });
  schedule(everyMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    wakers.delete(services);
    await running;
  };
}
