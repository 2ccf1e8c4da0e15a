/**
 * Redis queue driver on BullMQ (REDIS_URL set). Any process can add jobs and wait for them; worker
 * processes run them. A worker killed mid-job loses its lock, and another worker's stalled check puts
 * the job back after `lockDurationMs`. Our ids are BullMQ job ids; failures travel as the JSON of the
 * TrawlError in BullMQ's `failedReason`. Active jobs are cancelled across processes through a Redis
 * pub/sub channel. BullMQ talks to Redis through node-redis clients (one per BullMQ object).
 */
import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import { createClient } from 'redis';
import { TrawlError } from '../errors.ts';
import type { Logger } from '../log.ts';
import {
  DEFAULT_CLOSE_GRACE_MS,
  KEEP_FINISHED_MS,
  assertQueueName,
  cancelledError,
  closedError,
  notFoundError,
  resolveJobOptions,
  serializeData,
} from './shared.ts';
import type { JobHandler, JobOptions, QueueCounts, QueueDriver } from './types.ts';
import { Waiters, type Outcome } from './waiters.ts';
import { bullmqProcessor, reviveFailure } from './bullmq-processor.ts';

export interface BullmqQueueOptions {
  /** Redis key prefix (default `trawl`); drivers sharing jobs must use the same one. */
  prefix?: string;
  /** How long a worker's job lock lasts without renewal, ms; a killed worker's job restarts after it (default 30 000). */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs, ms (default 30 000). */
  stalledIntervalMs?: number;
  /**
   * Times a stalled job (its worker died) is put back to waiting; the next stall fails it with
   * JOB_INTERRUPTED (default 1: a job runs at most twice, as MAX_INTERRUPTIONS in core/queue/memory.ts).
   */
  maxStalledCount?: number;
  /** Finished jobs stay readable by `waitFor` this long, ms (default 1 h). */
  keepFinishedMs?: number;
  /** How often waiters re-read job state as a safety net, ms (default 5000). */
  pollMs?: number;
  /** How long connecting to Redis may take before failing with BACKEND_UNAVAILABLE, ms (default 10 000). */
  connectTimeoutMs?: number;
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}

interface Closable {
  isOpen: boolean;
  close(): Promise<void>;
}

/**
 * Connects to Redis and returns the driver.
 * @throws TrawlError BACKEND_UNAVAILABLE when Redis cannot be reached within `connectTimeoutMs`
 */
/**
 * The stored outcome of job `jobId` in `queue`: undefined while it is unfinished, a not-found failure
 * when it is gone.
 * The state is read first and the job after it: a job object read before it finished and checked for
 * its state after (the old order) saw `completed` with no `returnvalue` yet, a null result (a 500 for
 * the waiting scrape). Finishing writes the state and the value in one Redis script, so a job read
 * after its state is `completed` holds the value.
 */
export async function storedOutcome(queue: Queue, jobId: string): Promise<Outcome | undefined> {
  const state = await queue.getJobState(jobId);
  if (state === 'unknown') return { ok: false, error: notFoundError(jobId) };
  if (state !== 'completed' && state !== 'failed') return undefined;
  const job = await Job.fromId(queue, jobId);
  if (!job) return { ok: false, error: notFoundError(jobId) };
  if (state === 'completed') return { ok: true, value: job.returnvalue ?? null };
  return { ok: false, error: reviveFailure(job.failedReason) };
}

export async function createBullmqQueue(redisUrl: string, log: Logger, options: BullmqQueueOptions = {}): Promise<QueueDriver> {
  const prefix = options.prefix ?? 'trawl';
  const keepSeconds = Math.ceil((options.keepFinishedMs ?? KEEP_FINISHED_MS) / 1000);
  const pollMs = options.pollMs ?? 5_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const queuesKey = `${prefix}::queues`; // cannot collide: BullMQ keys are `${prefix}:${queue}:...`, queue non-empty
  const cancelChannel = `${prefix}::cancel`;
  const clients: Closable[] = [];
  const queues = new Map<string, Promise<Queue>>();
  const events = new Map<string, Promise<QueueEvents>>();
  const workers = new Map<string, { worker: Worker; running: Map<string, Promise<unknown>>; cancelled: Set<string> }>();
  const waiters = new Waiters(log);
  let subscribed: Promise<void> | undefined;
  let closing = false;

  /** A new connected client; once connected it reconnects on its own. */
  async function connect() {
    const client = createClient({ url: redisUrl, socket: { connectTimeout: connectTimeoutMs } });
    client.on('error', (e: unknown) => log.debug({ err: e }, 'redis client error'));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TrawlError('BACKEND_UNAVAILABLE', `Cannot reach Redis at ${redact(redisUrl)} within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    });
    try {
      await Promise.race([client.connect(), timeout]);
    } catch (e) {
      client.destroy();
      throw e;
    } finally {
      clearTimeout(timer);
    }
    clients.push(client);
    return client;
  }

  const main = await connect();

  function queueFor(name: string): Promise<Queue> {
    let p = queues.get(name);
    if (!p) {
      p = (async () => {
        const q = new Queue(name, { connection: await connect(), prefix });
        q.on('error', (e) => log.warn({ err: e, queue: name }, 'bullmq queue error'));
        await main.sAdd(queuesKey, name);
        return q;
      })();
      queues.set(name, p);
    }
    return p;
  }

  function eventsFor(name: string): Promise<QueueEvents> {
    let p = events.get(name);
    if (!p) {
      p = (async () => {
        // Start a little in the past so an event racing the first wait is not missed.
        const ev = new QueueEvents(name, { connection: await connect(), prefix, lastEventId: `${Date.now() - 5_000}-0` });
        ev.on('error', (e) => log.warn({ err: e, queue: name }, 'bullmq events error'));
        ev.on('completed', ({ jobId, returnvalue }) => waiters.settle(jobId, { ok: true, value: returnvalue ?? null }));
        ev.on('failed', ({ jobId, failedReason }) => waiters.settle(jobId, { ok: false, error: reviveFailure(failedReason) }));
        ev.on('removed', ({ jobId }) => waiters.settle(jobId, { ok: false, error: cancelledError(jobId) }));
        await ev.waitUntilReady();
        return ev;
      })();
      events.set(name, p);
    }
    return p;
  }

  /** The queue holding `jobId`, looked up among every queue jobs were ever added to under this prefix. */
  async function findJob(jobId: string): Promise<Job | undefined> {
    const names = await main.sMembers(queuesKey);
    const hits = await Promise.all(names.map((n) => main.exists(`${prefix}:${n}:${jobId}`)));
    const name = names.find((_, i) => hits[i] === 1);
    return name ? Job.fromId(await queueFor(name), jobId) : undefined;
  }


  /** Subscribes (once) to cancel requests for active jobs, which may run in this process. */
  function listenForCancels(): Promise<void> {
    subscribed ??= connect().then((sub) =>
      sub.subscribe(cancelChannel, (jobId: string) => {
        for (const w of workers.values()) {
          if (!w.running.has(jobId)) continue;
          w.cancelled.add(jobId);
          w.worker.cancelJob(jobId, 'cancelled');
        }
      }),
    );
    return subscribed;
  }

  return {
    kind: 'bullmq',

    async add<T>(queue: string, name: string, data: T, opts?: JobOptions): Promise<string> {
      if (closing) throw closedError();
      assertQueueName(queue);
      const o = resolveJobOptions(opts);
      const payload = JSON.parse(serializeData(data));
      await (await queueFor(queue)).add(name, payload, {
        jobId: o.id,
        priority: o.priority > 0 ? o.priority : undefined, // BullMQ: no priority runs before 1, 1 before 2 ...
        attempts: o.maxAttempts,
        backoff: { type: 'exponential', delay: o.backoffMs },
        delay: o.delayMs > 0 ? o.delayMs : undefined,
        removeOnComplete: { age: keepSeconds },
        removeOnFail: { age: keepSeconds },
      });
      return o.id;
    },

    async process<T, R>(queue: string, handler: JobHandler<T, R>, opts: { concurrency: number }): Promise<void> {
      if (closing) throw closedError();
      assertQueueName(queue);
      if (workers.has(queue)) throw new Error(`Queue ${queue} already has a processor in this process`);
      await queueFor(queue);
      const running = new Map<string, Promise<unknown>>();
      const cancelled = new Set<string>();
      const processor = bullmqProcessor(queue, handler, running, cancelled);
      const worker = new Worker(queue, processor, {
        connection: await connect(),
        prefix,
        concurrency: Math.max(1, Math.floor(opts.concurrency)),
        lockDuration: options.lockDurationMs ?? 30_000,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        maxStalledCount: options.maxStalledCount ?? 1,
      });
      worker.on('error', (e) => log.warn({ err: e, queue }, 'bullmq worker error'));
      workers.set(queue, { worker, running, cancelled });
      await listenForCancels();
      await worker.waitUntilReady();
    },

    async addAndWait<T, R>(queue: string, name: string, data: T, opts: JobOptions, timeoutMs: number): Promise<R> {
      const self = this as QueueDriver; // the instrumented driver (core/metrics wraps add)
      const id = await self.add(queue, name, data, opts);
      return self.waitFor<R>(id, timeoutMs);
    },

    async waitFor<R>(jobId: string, timeoutMs: number): Promise<R> {
      if (closing) throw closedError();
      const job = await findJob(jobId);
      if (!job) throw notFoundError(jobId);
      await eventsFor(job.queueName);
      return waiters.wait<R>(jobId, timeoutMs, pollMs, async () => storedOutcome(await queueFor(job.queueName), jobId));
    },

    async cancel(jobId: string): Promise<boolean> {
      const job = await findJob(jobId);
      if (!job) return false;
      const state = await job.getState();
      if (state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') {
        try {
          await job.remove();
          waiters.settle(jobId, { ok: false, error: cancelledError(jobId) });
          return true;
        } catch {
          // became active (locked) meanwhile: cancel it as active below
        }
      } else if (state !== 'active') {
        return false;
      }
      await main.publish(cancelChannel, jobId);
      return true;
    },

    async forget(jobId: string): Promise<void> {
      const job = await findJob(jobId);
      const state = await job?.getState();
      if (job && (state === 'completed' || state === 'failed')) await job.remove().catch(() => {});
    },

    async counts(queue: string): Promise<QueueCounts> {
      assertQueueName(queue);
      const c = await (await queueFor(queue)).getJobCounts('wait', 'prioritized', 'active', 'delayed');
      return { waiting: (c.wait ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0 };
    },

    async ping(): Promise<boolean> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), 5_000)));
      try {
        return (await Promise.race([main.ping(), timeout])) === 'PONG';
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },

    async close(graceMs = DEFAULT_CLOSE_GRACE_MS): Promise<void> {
      if (closing) return;
      closing = true;
      const all = [...workers.values()];
      await Promise.all(all.map((w) => w.worker.pause(true).catch(() => {})));
      const active = all.flatMap((w) => [...w.running.values()].map((p) => p.catch(() => {})));
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(active), grace]);
      clearTimeout(graceTimer);
      // Jobs still running are left locked: their locks lapse and another worker's stalled check restarts them.
      await Promise.all(all.map((w) => w.worker.close(true).catch((e) => log.warn({ err: e }, 'worker close failed'))));
      for (const w of all) w.worker.cancelAllJobs('shutdown');
      waiters.rejectAll(closedError());
      await Promise.all([...events.values()].map((p) => p.then((ev) => ev.close()).catch(() => {})));
      await Promise.all([...queues.values()].map((p) => p.then((q) => q.close()).catch(() => {})));
      await Promise.all(clients.map((c) => (c.isOpen ? c.close().catch(() => {}) : undefined)));
    },
  };
}
