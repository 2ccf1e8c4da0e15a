/**
 * In-process queue driver (no REDIS_URL). Jobs are rows of `queue_jobs` (memory-store.ts) and run in
 * this process, at most `concurrency` per queue; the database decides which job is next, so priority
 * and delays hold across restarts. On start, jobs a stopped process left active are put back to waiting
 * and run again, at most once: a second interruption fails the job (MAX_INTERRUPTIONS); a clean
 * shutdown puts its running jobs back uncounted. Meant for one process per database: with several
 * processes, use Redis (bullmq.ts).
 *
 * Fast path (issue 22): while a queue has a free slot and no waiting job, `add` inserts the job as
 * already active and starts it at once, and its outcome reaches this process's `waitFor` callers
 * directly; the row is still written first and completed after, so a crash resumes it as before.
 * `addAndWait` (a synchronous request waiting for its own job) goes one step further: on a free
 * slot the job runs with no row at all and its outcome goes straight to the waiting caller; the row
 * is written only if the wait ends first (then as active, so from there on a crash resumes it) or
 * the job finishes while nobody waits (then finished, for a later `waitFor`).
 */
import type { Database } from '../db/client.ts';
import { TrawlError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { QueueStore, type ClaimedRow } from './memory-store.ts';
import {
  DEFAULT_CLOSE_GRACE_MS,
  KEEP_FINISHED_MS,
  assertQueueName,
  cancelledError,
  classifyFailure,
  closedError,
  notFoundError,
  resolveJobOptions,
  retryDelayMs,
  serializeData,
  type ResolvedJobOptions,
} from './shared.ts';
import type { JobHandler, JobOptions, QueueCounts, QueueDriver, QueueJob } from './types.ts';
import { Waiters, jsonCopy, type Outcome } from './waiters.ts';

/**
 * Times a job may be interrupted (its process stopped while it ran) before it fails with
 * JOB_INTERRUPTED instead of running again: it ran and its process died twice. BullMQ's equivalent
 * bound is the worker's `maxStalledCount` (core/queue/bullmq.ts).
 */
export const MAX_INTERRUPTIONS = 2;

function interruptedError(): TrawlError {
  return new TrawlError(
    'JOB_INTERRUPTED',
    `The job was interrupted ${MAX_INTERRUPTIONS} times: the process running it stopped (a crash or an out-of-memory kill) while it ran. It is not run again, since running it may be what stops the process.`,
  );
}

/** Default safety-net poll of idle queues, ms. */
export const IDLE_POLL_MS = 60_000;

export interface MemoryQueueOptions {
  /**
   * How often idle queues and waiters look at the table again, ms (a safety net). Default: waiters
   * every 5000, idle queues every IDLE_POLL_MS (jobs added in this process start at once anyway, and
   * an idle server should make no round trips every few seconds).
   */
  pollMs?: number;
  /** Finished jobs stay readable by `waitFor` this long, ms (default 1 h). */
  keepFinishedMs?: number;
}

interface ActiveJob {
  controller: AbortController;
  cancelled: boolean;
  /** The outcome was delivered to this process's waiters (a later `waitFor` must read the table). */
  settled: boolean;
  done: Promise<void>;
  /**
   * A direct run (`addAndWait`) with no row yet: what writing its row needs. `recorded` is set once
   * the row is being written (the wait ended first), `outcomeKnown` once the handler has finished.
   */
  direct?: { name: string; json: string; o: ResolvedJobOptions; recorded?: Promise<void>; outcomeKnown: boolean };
}

interface Runner {
  queue: string;
  handler: JobHandler<unknown, unknown>;
  concurrency: number;
  active: Map<string, ActiveJob>;
  /** Slots held by `add` while it inserts a job it will start itself. */
  reserved: number;
  /**
   * False once a claim found no due job and nothing was put back to waiting since: a new job may
   * then start at once (`add`) and a finished one need not look for the next (no claim statement).
   */
  backlog: boolean;
  /** Bumped whenever a job goes to waiting, so a claim that raced with it does not clear `backlog`. */
  epoch: number;
  pumping: boolean;
  again: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Opens the in-process driver on `db` and resumes interrupted jobs (they run once `process` is called
 * for their queue).
 */
export async function createMemoryQueue(db: Database, log: Logger, options: MemoryQueueOptions = {}): Promise<QueueDriver> {
  const store = new QueueStore(db);
  const pollMs = options.pollMs ?? 5_000;
  const idlePollMs = options.pollMs ?? IDLE_POLL_MS;
  const keepMs = options.keepFinishedMs ?? KEEP_FINISHED_MS;
  const waiters = new Waiters(log);
  const runners = new Map<string, Runner>();
  let closing = false;
  let abandoned = false; // past the close grace: running handlers' outcomes are dropped

  const interrupted = await store.resumeInterrupted(MAX_INTERRUPTIONS, interruptedError().toJSON());
  if (interrupted.resumed.length > 0) log.info({ jobs: interrupted.resumed.length }, 'resuming interrupted queue jobs');
  if (interrupted.failed.length > 0) log.warn({ jobIds: interrupted.failed }, `queue jobs interrupted ${MAX_INTERRUPTIONS} times failed`);
  await store.prune(keepMs);
  const pruneTimer = setInterval(() => store.prune(keepMs).catch((e) => log.warn({ err: e }, 'queue prune failed')), 600_000);
  pruneTimer.unref?.();
  const pollTimer = setInterval(() => runners.forEach((r) => void pump(r)), idlePollMs);
  pollTimer.unref?.();

  async function pump(r: Runner): Promise<void> {
    if (closing) return;
    if (r.pumping) {
      r.again = true;
      return;
    }
    r.pumping = true;
    try {
      do {
        r.again = false;
        while (!closing && r.active.size + r.reserved < r.concurrency) {
          const epoch = r.epoch;
          const row = await store.claim(r.queue);
          if (!row) {
            if (r.epoch === epoch) r.backlog = false;
            break;
          }
          if (closing) {
            // Claimed during shutdown: back to waiting, not counted as an interruption.
            await store.release([row.id]).catch((e) => log.warn({ err: e, jobId: row.id }, 'could not release queue job'));
            return;
          }
          start(r, row);
        }
      } while (r.again && !closing);
      if (!closing && r.active.size + r.reserved < r.concurrency) await scheduleNext(r);
    } catch (e) {
      log.warn({ err: e, queue: r.queue }, 'queue pump failed');
    } finally {
      r.pumping = false;
    }
  }

  async function scheduleNext(r: Runner): Promise<void> {
    const ms = await store.nextDueInMs(r.queue);
    clearTimeout(r.timer);
    if (ms === undefined) return;
    r.timer = setTimeout(() => void pump(r), Math.min(Math.max(ms, 5), idlePollMs));
    r.timer.unref?.();
  }

  function start(r: Runner, row: ClaimedRow, direct?: ActiveJob['direct']): ActiveJob {
    const controller = new AbortController();
    const entry: ActiveJob = { controller, cancelled: false, settled: false, done: Promise.resolve(), direct };
    r.active.set(row.id, entry);
    entry.done = (direct ? runDirect(r, row, entry, direct) : run(r, row, entry)).finally(() => {
      r.active.delete(row.id);
      if (r.backlog) void pump(r);
    });
    return entry;
  }

  /** Marks that waiting rows may exist, so the next finished job or add looks for them. */
  function markBacklog(r: Runner): void {
    r.backlog = true;
    r.epoch++;
  }

  async function run(r: Runner, row: ClaimedRow, entry: ActiveJob): Promise<void> {
    const job: QueueJob<unknown> = { id: row.id, queue: row.queue, name: row.name, data: row.data, attempt: row.attempts, maxAttempts: row.max_attempts };
    let outcome: Outcome;
    let retryIn: number | undefined;
    try {
      outcome = { ok: true, value: jsonCopy(await r.handler(job, entry.controller.signal)) };
    } catch (e) {
      const { error, retry } = classifyFailure(e, job.attempt, job.maxAttempts, entry.cancelled);
      outcome = { ok: false, error };
      if (retry) retryIn = retryDelayMs(row.backoff_ms, job.attempt);
    }
    if (abandoned) return;
    try {
      if (outcome.ok) await store.complete(row.id, JSON.stringify(outcome.value));
      else if (retryIn !== undefined) await store.retry(row.id, outcome.error.toJSON(), retryIn);
      else await store.fail(row.id, outcome.error.toJSON());
    } catch (e) {
      log.error({ err: e, jobId: row.id }, 'could not record queue job outcome');
    }
    if (retryIn !== undefined) {
      markBacklog(r);
      log.debug({ jobId: row.id, attempt: job.attempt, code: !outcome.ok && outcome.error.code, retryIn }, 'queue job will retry');
      return;
    }
    if (!outcome.ok) log.debug({ jobId: row.id, code: outcome.error.code }, 'queue job failed');
    entry.settled = true;
    waiters.settle(row.id, outcome.ok ? outcome : { ok: false, error: TrawlError.fromJSON(outcome.error.toJSON()) });
  }

  /**
   * A job of `addAndWait` run without a row: one attempt, its outcome handed to this process's
   * waiters. Its row is written only when needed: completed or failed when nobody waits for the
   * outcome any more (and it had none), or updated when it got one as active (`recordDirect`).
   */
  async function runDirect(r: Runner, row: ClaimedRow, entry: ActiveJob, direct: NonNullable<ActiveJob['direct']>): Promise<void> {
    const job: QueueJob<unknown> = { id: row.id, queue: row.queue, name: row.name, data: row.data, attempt: 1, maxAttempts: 1 };
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: jsonCopy(await r.handler(job, entry.controller.signal)) };
    } catch (e) {
      outcome = { ok: false, error: classifyFailure(e, 1, 1, entry.cancelled).error };
    }
    direct.outcomeKnown = true;
    if (abandoned) return;
    // Decided before any await: a wait that ends from here on finds the job settled or active here.
    if (direct.recorded || !waiters.has(row.id)) {
      try {
        await direct.recorded;
        await store.insertFinished(row.queue, row.name, direct.o, outcome.ok ? { result: JSON.stringify(outcome.value) } : { error: outcome.error.toJSON() });
      } catch (e) {
        log.error({ err: e, jobId: row.id }, 'could not record queue job outcome');
      }
    }
    if (!outcome.ok) log.debug({ jobId: row.id, code: outcome.error.code }, 'queue job failed');
    entry.settled = true;
    waiters.settle(row.id, outcome.ok ? outcome : { ok: false, error: TrawlError.fromJSON(outcome.error.toJSON()) });
  }

  /**
   * The wait for a direct run ended before its outcome: write its row as active now, so the job
   * survives a crash (the next start resumes it) and a later `waitFor` in any process finds it.
   */
  function recordDirect(r: Runner, jobId: string, entry: ActiveJob): Promise<void> {
    const direct = entry.direct!;
    direct.recorded ??= store
      .insertActive(r.queue, direct.name, direct.json, direct.o)
      .then(() => undefined, (e) => log.error({ err: e, jobId }, 'could not record a running queue job'));
    return direct.recorded;
  }

  async function probe(jobId: string): Promise<Outcome | undefined> {
    // Running here and not settled: unfinished (a direct run has no row to read).
    const here = activeEntry(jobId);
    if (here && !here.settled) return undefined;
    const row = await store.status(jobId);
    if (!row) return { ok: false, error: notFoundError(jobId) };
    if (row.status === 'completed') return { ok: true, value: row.result };
    if (row.status === 'failed') return { ok: false, error: TrawlError.fromJSON(row.error ?? {}) };
    return undefined;
  }

  function activeEntry(jobId: string) {
    for (const r of runners.values()) {
      const entry = r.active.get(jobId);
      if (entry) return entry;
    }
    return undefined;
  }

  return {
    kind: 'memory',

    async add<T>(queue: string, name: string, data: T, opts?: JobOptions): Promise<string> {
      if (closing) throw closedError();
      assertQueueName(queue);
      const o = resolveJobOptions(opts);
      const json = serializeData(data);
      const r = runners.get(queue);
      // A free slot and nothing waiting: the job starts here at once, its row inserted as active
      // (one statement instead of insert, claim, and the claims and due-time reads around it).
      if (r && !r.backlog && o.delayMs <= 0 && r.active.size + r.reserved < r.concurrency) {
        r.reserved++;
        let inserted: boolean;
        try {
          inserted = await store.insertActive(queue, name, json, o);
        } finally {
          r.reserved--;
        }
        if (!inserted) return o.id;
        if (closing) {
          await store.release([o.id]).catch((e) => log.warn({ err: e, jobId: o.id }, 'could not release queue job'));
          return o.id;
        }
        start(r, { id: o.id, queue, name, data: JSON.parse(json), attempts: 1, max_attempts: o.maxAttempts, backoff_ms: o.backoffMs });
        return o.id;
      }
      await store.insert(queue, name, json, o);
      if (r) {
        markBacklog(r);
        void pump(r);
      }
      return o.id;
    },

    async addAndWait<T, R>(queue: string, name: string, data: T, opts: JobOptions, timeoutMs: number): Promise<R> {
      if (closing) throw closedError();
      assertQueueName(queue);
      const o = resolveJobOptions(opts);
      const r = runners.get(queue);
      if (!r || r.backlog || o.delayMs > 0 || o.maxAttempts > 1 || r.active.size + r.reserved >= r.concurrency || activeEntry(o.id)) {
        const self = this as QueueDriver; // the instrumented driver (core/metrics wraps add)
        const id = await self.add(queue, name, data, opts);
        return self.waitFor<R>(id, timeoutMs);
      }
      const json = serializeData(data);
      const entry = start(r, { id: o.id, queue, name, data: JSON.parse(json), attempts: 1, max_attempts: 1, backoff_ms: o.backoffMs }, { name, json, o, outcomeKnown: false });
      try {
        return await waiters.wait<R>(o.id, timeoutMs, pollMs, () => probe(o.id), false);
      } catch (e) {
        // The wait ended first (timeout, shutdown): from now on the job is durable and findable.
        if (!entry.direct!.outcomeKnown && !closing) await recordDirect(r, o.id, entry);
        throw e;
      }
    },

    async process<T, R>(queue: string, handler: JobHandler<T, R>, opts: { concurrency: number }): Promise<void> {
      if (closing) throw closedError();
      assertQueueName(queue);
      if (runners.has(queue)) throw new Error(`Queue ${queue} already has a processor in this process`);
      const concurrency = Math.max(1, Math.floor(opts.concurrency));
      const r: Runner = { queue, handler: handler as JobHandler<unknown, unknown>, concurrency, active: new Map(), reserved: 0, backlog: true, epoch: 0, pumping: false, again: false };
      runners.set(queue, r);
      void pump(r);
    },

    async waitFor<R>(jobId: string, timeoutMs: number): Promise<R> {
      if (closing) throw closedError();
      // A job running here settles its waiters itself: no need to read the table first.
      const here = activeEntry(jobId);
      return waiters.wait<R>(jobId, timeoutMs, pollMs, () => probe(jobId), !here || here.settled);
    },

    async cancel(jobId: string): Promise<boolean> {
      const running = activeEntry(jobId);
      if (running) {
        running.cancelled = true;
        running.controller.abort(cancelledError(jobId));
        return true;
      }
      if (await store.removeWaiting(jobId)) {
        waiters.settle(jobId, { ok: false, error: cancelledError(jobId) });
        return true;
      }
      const late = activeEntry(jobId); // claimed while we were deleting
      if (late) {
        late.cancelled = true;
        late.controller.abort(cancelledError(jobId));
        return true;
      }
      return false;
    },

    async forget(jobId: string): Promise<void> {
      await db.query("delete from queue_jobs where id = $1 and status in ('completed', 'failed')", [jobId]);
    },

    async counts(queue: string): Promise<QueueCounts> {
      const c = await store.counts(queue);
      // Direct runs of `addAndWait` have no row until their wait ends: count them here.
      for (const e of runners.get(queue)?.active.values() ?? []) if (e.direct && !e.direct.recorded && !e.settled) c.active++;
      return c;
    },

    ping: () => db.ping(),

    async close(graceMs = DEFAULT_CLOSE_GRACE_MS): Promise<void> {
      if (closing) return;
      closing = true;
      clearInterval(pruneTimer);
      clearInterval(pollTimer);
      for (const r of runners.values()) clearTimeout(r.timer);
      const running = [...runners.values()].flatMap((r) => [...r.active.values()]);
      const runningIds = [...runners.values()].flatMap((r) => [...r.active.keys()]);
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(running.map((e) => e.done)), grace]);
      clearTimeout(graceTimer);
      abandoned = true;
      for (const e of running) e.controller.abort(closedError());
      // A clean shutdown is not an interruption: jobs still running go back to waiting uncounted.
      await store.release(runningIds).catch((e) => log.warn({ err: e }, 'could not release queue jobs'));
      waiters.rejectAll(closedError());
    },
  };
}
