/**
 * Queue contract: one suite run against the in-process driver (on PGlite and on Postgres) and the
 * BullMQ driver (Redis), plus what only one driver can show: resuming after a stop (memory), and
 * api/worker split plus stalled-job recovery after a SIGKILLed worker process (BullMQ).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { createClient } from 'redis';
import { TrawlError } from '../../core/errors.ts';
import { silentLogger } from '../../core/log.ts';
import { createBullmqQueue, type BullmqQueueOptions } from '../../core/queue/bullmq.ts';
import { isWaitTimeout, type QueueDriver, type QueueJob } from '../../core/queue/index.ts';
import { createMemoryQueue } from '../../core/queue/memory.ts';
import { openTestDatabase, rejectionOf, type TestDatabase } from '../helpers/db.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

interface Backend {
  label: string;
  kind: 'memory' | 'bullmq';
  setup(): Promise<void>;
  /** A new driver instance on the shared backing store (same database / same Redis prefix). */
  open(options?: BullmqQueueOptions): Promise<QueueDriver>;
  teardown(): Promise<void>;
  db?: () => TestDatabase;
  prefix?: string;
}

function memoryBackend(dbKind: 'pglite' | 'postgres'): Backend {
  let t: TestDatabase;
  return {
    label: `memory on ${dbKind}`,
    kind: 'memory',
    setup: async () => void (t = await openTestDatabase(dbKind)),
    open: () => createMemoryQueue(t.db, silentLogger, { pollMs: 500 }),
    teardown: async () => t?.close(),
    db: () => t,
  };
}

function bullmqBackend(): Backend {
  const prefix = `trawltest${crypto.randomUUID().slice(0, 8)}`;
  return {
    label: 'bullmq',
    kind: 'bullmq',
    prefix,
    setup: async () => {},
    open: (options) => createBullmqQueue(REDIS_URL, silentLogger, { prefix, ...options }),
    async teardown() {
      const c = createClient({ url: REDIS_URL });
      await c.connect();
      const keys: string[] = [];
      for await (const batch of c.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) keys.push(...batch);
      if (keys.length > 0) await c.del(keys);
      await c.close();
    },
  };
}

let queueSeq = 0;
const newQueueName = () => `q${++queueSeq}-${crypto.randomUUID().slice(0, 6)}`;

async function rejection(p: Promise<unknown>): Promise<TrawlError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    return e as TrawlError;
  }
  throw new Error('expected a rejection');
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await Bun.sleep(10);
  }
}

for (const backend of [memoryBackend('pglite'), memoryBackend('postgres'), bullmqBackend()]) {
  describe(backend.label, () => {
    const opened: QueueDriver[] = [];
    const open = async (options?: BullmqQueueOptions) => {
      const q = await backend.open(options);
      opened.push(q);
      return q;
    };
    beforeAll(() => backend.setup());
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((q) => q.close(0)));
    });
    afterAll(() => backend.teardown());

    test('add, process, waitFor gives the result; the handler sees the job', async () => {
      const q = await open();
      const queue = newQueueName();
      const seen: QueueJob<{ n: number }>[] = [];
      await q.process<{ n: number }, unknown>(queue, async (job) => {
        seen.push(job);
        return { doubled: job.data.n * 2, when: new Date(0), nothing: undefined };
      }, { concurrency: 2 });
      const id = await q.add(queue, 'double', { n: 21 });
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await q.waitFor(id, 5_000)).toEqual({ doubled: 42, when: '1970-01-01T00:00:00.000Z' });
      expect(seen).toEqual([{ id, queue, name: 'double', data: { n: 21 }, attempt: 1, maxAttempts: 1 }]);
      expect(await q.ping()).toBe(true);
      expect(q.kind).toBe(backend.kind);
    });

    test('handler errors come back as the same TrawlError; other errors as UNKNOWN_ERROR', async () => {
      const q = await open();
      const queue = newQueueName();
      await q.process<{ kind: string }, never>(queue, async (job) => {
        if (job.data.kind === 'trawl') {
          throw new TrawlError('SCRAPE_SSL_ERROR', 'Certificate of a.test is not trusted', { details: { host: 'a.test' }, headers: { 'X-A': '1' } });
        }
        throw new RangeError('kaput');
      }, { concurrency: 1 });
      const e1 = await rejection(q.waitFor(await q.add(queue, 'x', { kind: 'trawl' }), 5_000));
      expect(e1.toJSON()).toEqual({
        name: 'TrawlError',
        code: 'SCRAPE_SSL_ERROR',
        message: 'Certificate of a.test is not trusted',
        status: 500,
        retryable: false,
        details: { host: 'a.test' },
        headers: { 'X-A': '1' },
      });
      const e2 = await rejection(q.waitFor(await q.add(queue, 'x', { kind: 'other' }), 5_000));
      expect([e2.code, e2.status, e2.message]).toEqual(['UNKNOWN_ERROR', 500, 'kaput']);
    });

    test('retryable errors are retried up to maxAttempts with backoff; others are not', async () => {
      const q = await open();
      const queue = newQueueName();
      const attempts: Record<string, number[]> = { always: [], once: [], fatal: [] };
      const times: number[] = [];
      await q.process<{ mode: 'always' | 'once' | 'fatal' }, string>(queue, async (job) => {
        attempts[job.data.mode].push(job.attempt);
        if (job.data.mode === 'always') times.push(Date.now());
        expect(job.maxAttempts).toBe(3);
        if (job.data.mode === 'fatal') throw new TrawlError('SCRAPE_DNS_RESOLUTION_ERROR', 'no such host');
        if (job.data.mode === 'once' && job.attempt === 1) throw new TrawlError('SCRAPE_SITE_ERROR', 'flaky');
        if (job.data.mode === 'always') throw new TrawlError('SCRAPE_SITE_ERROR', `still down (${job.attempt})`);
        return `ok on ${job.attempt}`;
      }, { concurrency: 3 });
      const opts = { maxAttempts: 3, backoffMs: 100 };
      const [always, once, fatal] = await Promise.all(
        (['always', 'once', 'fatal'] as const).map((mode) => q.add(queue, mode, { mode }, opts)),
      );
      const e = await rejection(q.waitFor(always, 10_000));
      expect([e.code, e.message, e.retryable]).toEqual(['SCRAPE_SITE_ERROR', 'still down (3)', true]);
      expect(await q.waitFor(once, 10_000)).toBe('ok on 2');
      expect((await rejection(q.waitFor(fatal, 10_000))).code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
      expect(attempts).toEqual({ always: [1, 2, 3], once: [1, 2], fatal: [1] });
      // Exponential backoff: ~100 ms then ~200 ms.
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(90);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(190);
    });

    test('never more than `concurrency` jobs at once, and it does run that many', async () => {
      const q = await open();
      const queue = newQueueName();
      let running = 0;
      let peak = 0;
      await q.process<number, number>(queue, async (job) => {
        running++;
        peak = Math.max(peak, running);
        await Bun.sleep(60);
        running--;
        return job.data;
      }, { concurrency: 3 });
      const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => q.add(queue, 'n', i)));
      expect(await Promise.all(ids.map((id) => q.waitFor(id, 10_000)))).toEqual([...Array(10).keys()]);
      expect(peak).toBe(3);
    });

    test('lower priority runs first; equal priorities in the order added', async () => {
      const q = await open();
      const queue = newQueueName();
      const order: string[] = [];
      const plan: [string, number | undefined][] = [['p5', 5], ['p1a', 1], ['d', undefined], ['p3', 3], ['p1b', 1], ['p0', 0]];
      const ids: string[] = [];
      for (const [name, priority] of plan) ids.push(await q.add(queue, name, null, { priority }));
      await q.process(queue, async (job) => void order.push(job.name), { concurrency: 1 });
      await Promise.all(ids.map((id) => q.waitFor(id, 10_000)));
      expect(order).toEqual(['d', 'p0', 'p1a', 'p1b', 'p3', 'p5']);
    });

    test('delayed jobs wait for their time and are counted as delayed', async () => {
      const q = await open();
      const queue = newQueueName();
      const added = Date.now();
      const id = await q.add(queue, 'later', null, { delayMs: 400 });
      await q.add(queue, 'now', null);
      expect(await q.counts(queue)).toEqual({ waiting: 1, active: 0, delayed: 1 });
      let startedAt = 0;
      await q.process(queue, async (job) => {
        if (job.name === 'later') startedAt = Date.now();
      }, { concurrency: 1 });
      await q.waitFor(id, 5_000);
      expect(startedAt - added).toBeGreaterThanOrEqual(380);
      await until(async () => (await q.counts(queue)).waiting === 0);
      expect(await q.counts(queue)).toEqual({ waiting: 0, active: 0, delayed: 0 });
    });

    test('cancel removes a waiting job; its waiters get SCRAPE_JOB_CANCELLED', async () => {
      const q = await open();
      const queue = newQueueName();
      const release = Promise.withResolvers<void>();
      const ran: string[] = [];
      await q.process(queue, async (job) => {
        ran.push(job.name);
        if (job.name === 'blocker') await release.promise;
      }, { concurrency: 1 });
      const blocker = await q.add(queue, 'blocker', null);
      await until(() => ran.includes('blocker'));
      const victim = await q.add(queue, 'victim', null);
      const waiting = rejection(q.waitFor(victim, 5_000));
      await Bun.sleep(50);
      expect(await q.counts(queue)).toEqual({ waiting: 1, active: 1, delayed: 0 });
      expect(await q.cancel(victim)).toBe(true);
      expect((await waiting).code).toBe('SCRAPE_JOB_CANCELLED');
      release.resolve();
      await q.waitFor(blocker, 5_000);
      await Bun.sleep(100);
      expect(ran).toEqual(['blocker']);
      expect(await q.cancel(victim)).toBe(false);
      expect(await q.cancel(blocker)).toBe(false); // finished
    });

    test('cancel aborts an active job through its signal', async () => {
      const q = await open();
      const queue = newQueueName();
      let started = false;
      let reason: unknown;
      await q.process(queue, async (_job, signal) => {
        started = true;
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject((reason = signal.reason))));
      }, { concurrency: 1 });
      const id = await q.add(queue, 'long', null, { maxAttempts: 3 });
      const waiting = rejection(q.waitFor(id, 5_000));
      await until(() => started);
      expect(await q.cancel(id)).toBe(true);
      const e = await waiting;
      expect(e.code).toBe('SCRAPE_JOB_CANCELLED');
      expect(reason).toBeDefined();
    });

    test('waitFor times out with a recognizable error; the job still finishes', async () => {
      const q = await open();
      const queue = newQueueName();
      await q.process(queue, async () => {
        await Bun.sleep(2_000);
        return 'late';
      }, { concurrency: 1 });
      const id = await q.add(queue, 'slow', null);
      // A wait that ignored its 100 ms would resolve with 'late' after 2 s instead of rejecting.
      const e = await rejection(q.waitFor(id, 100));
      expect(isWaitTimeout(e)).toBe(true);
      expect([e.code, e.status]).toEqual(['GATEWAY_TIMEOUT', 504]);
      expect(isWaitTimeout(new TrawlError('GATEWAY_TIMEOUT', 'upstream'))).toBe(false);
      expect(await q.waitFor(id, 30_000)).toBe('late');
      expect(await q.waitFor(id, 5_000)).toBe('late'); // finished jobs stay readable
      expect((await rejection(q.waitFor('no-such-job', 1_000))).code).toBe('JOB_NOT_FOUND');
    });

    test('addAndWait gives the result or the error of a new job, like add then waitFor', async () => {
      const q = await open();
      const queue = newQueueName();
      await q.process<{ n: number }, unknown>(queue, async (job) => {
        if (job.data.n < 0) throw new TrawlError('SCRAPE_SSL_ERROR', 'not trusted');
        return { doubled: job.data.n * 2, text: 'ü\u2028"', nothing: undefined, nan: NaN };
      }, { concurrency: 1 });
      const [a, b] = await Promise.all([
        q.addAndWait(queue, 'double', { n: 21 }, {}, 5_000),
        q.addAndWait(queue, 'double', { n: 2 }, { id: crypto.randomUUID() }, 5_000), // the slot is taken: queued
      ]);
      expect(a).toEqual({ doubled: 42, text: 'ü\u2028"', nan: null });
      expect(b).toEqual({ doubled: 4, text: 'ü\u2028"', nan: null });
      const e = await rejection(q.addAndWait(queue, 'double', { n: -1 }, {}, 5_000));
      expect([e.code, e.message]).toEqual(['SCRAPE_SSL_ERROR', 'not trusted']);
      expect((await rejection(q.addAndWait(queue, 'n', { big: 1n }, {}, 5_000))).code).toBe('BAD_REQUEST');
    });

    test('addAndWait: a wait that times out leaves a job that finishes and stays readable', async () => {
      const q = await open();
      const queue = newQueueName();
      await q.process(queue, async () => {
        await Bun.sleep(1_000);
        return 'late';
      }, { concurrency: 1 });
      const id = crypto.randomUUID();
      expect(isWaitTimeout(await rejection(q.addAndWait(queue, 'slow', null, { id }, 100)))).toBe(true);
      expect(await q.waitFor(id, 30_000)).toBe('late');
      expect(await q.waitFor(id, 5_000)).toBe('late');
    });

    test('forget deletes a finished job and its stored result', async () => {
      const q = await open();
      const queue = newQueueName();
      await q.process(queue, async () => ({ document: 'private' }), { concurrency: 1 });
      const id = await q.add(queue, 'zdr', {});
      expect(await q.waitFor(id, 5_000)).toEqual({ document: 'private' });
      expect(await q.waitFor(id, 5_000)).toEqual({ document: 'private' }); // kept for later readers
      await q.forget(id);
      expect(await rejectionOf(q.waitFor(id, 1_000))).toBeInstanceOf(TrawlError);
    });

    test('adding an existing id is a no-op returning that id', async () => {
      const q = await open();
      const queue = newQueueName();
      const id = crypto.randomUUID();
      expect(await q.add(queue, 'first', { v: 1 }, { id })).toBe(id);
      expect(await q.add(queue, 'second', { v: 2 }, { id })).toBe(id);
      const seen: unknown[] = [];
      await q.process(queue, async (job) => void seen.push([job.name, job.data]), { concurrency: 2 });
      await q.waitFor(id, 5_000);
      await Bun.sleep(100);
      expect(seen).toEqual([['first', { v: 1 }]]);
    });

    test('bad ids, names and options are BAD_REQUEST', async () => {
      const q = await open();
      for (const call of [
        () => q.add('ok', 'n', null, { id: 'a:b' }),
        () => q.add('ok', 'n', null, { id: '123' }),
        () => q.add('ok', 'n', null, { priority: -1 }),
        () => q.add('ok', 'n', null, { maxAttempts: 0 }),
        () => q.add('bad:queue', 'n', null),
        () => q.add('ok', 'n', { big: 1n }),
      ]) {
        expect((await rejection(call())).code).toBe('BAD_REQUEST');
      }
    });

    test('close waits for active jobs, and their results stay readable', async () => {
      const q = await open();
      const queue = newQueueName();
      let finished = false;
      let started = false;
      await q.process(queue, async () => {
        started = true;
        await Bun.sleep(300);
        finished = true;
        return 'done';
      }, { concurrency: 1 });
      const id = await q.add(queue, 'j', null);
      await until(() => started);
      await q.close(5_000);
      expect(finished).toBe(true);
      await q.close(); // idempotent
      expect((await rejection(q.add(queue, 'after', null))).code).toBe('BACKEND_UNAVAILABLE');
      const other = await open();
      expect(await other.waitFor(id, 2_000)).toBe('done');
    });

    if (backend.kind === 'memory') {
      test('jobs left by a stopped process run on the next start', async () => {
        const t = backend.db!();
        const queue = newQueueName();
        const a = await open();
        const waitingId = await a.add(queue, 'never-started', { n: 1 });
        const activeId = await a.add(queue, 'interrupted', { n: 2 });
        await a.close();
        // Simulate a crash mid-job: the row is left active with one attempt started.
        await t.db.query(`update queue_jobs set status = 'active', attempts = 1 where id = $1`, [activeId]);
        const b = await open();
        const runs: [string, number][] = [];
        await b.process<{ n: number }, number>(queue, async (job) => {
          runs.push([job.name, job.attempt]);
          return job.data.n * 10;
        }, { concurrency: 1 });
        expect(await b.waitFor(waitingId, 5_000)).toBe(10);
        expect(await b.waitFor(activeId, 5_000)).toBe(20);
        expect(runs.sort()).toEqual([['interrupted', 1], ['never-started', 1]]);
        const rows = await t.db.query('select status, data from queue_jobs where id = any($1::text[])', [[waitingId, activeId]]);
        expect(rows).toEqual([{ status: 'completed', data: null }, { status: 'completed', data: null }]);
      });

      test('a job started at once (free slot) is recorded active while it runs; a busy queue still waits in priority order', async () => {
        const t = backend.db!();
        const q = await open();
        const queue = newQueueName();
        const order: string[] = [];
        let releaseFirst!: () => void;
        const firstGate = new Promise<void>((r) => (releaseFirst = r));
        let startedFirst!: () => void;
        const firstStarted = new Promise<void>((r) => (startedFirst = r));
        await q.process<{ n: number }, number>(queue, async (job) => {
          order.push(job.name);
          if (job.name === 'first') {
            startedFirst();
            await firstGate;
          }
          return job.data.n;
        }, { concurrency: 1 });
        const first = await q.add(queue, 'first', { n: 1 });
        await firstStarted;
        // The row is written before the handler runs: a crash now resumes the job.
        expect(await t.db.query('select status, attempts from queue_jobs where id = $1', [first])).toEqual([{ status: 'active', attempts: 1 }]);
        const low = await q.add(queue, 'low', { n: 2 }, { priority: 5 });
        const high = await q.add(queue, 'high', { n: 3 }, { priority: 1 });
        releaseFirst();
        expect(await q.waitFor(first, 5_000)).toBe(1);
        expect(await q.waitFor(low, 5_000)).toBe(2);
        expect(await q.waitFor(high, 5_000)).toBe(3);
        expect(order).toEqual(['first', 'high', 'low']);
        // The queue is idle again: the next job starts at once and its result is still stored.
        const next = await q.add(queue, 'next', { n: 4 });
        expect(await q.waitFor(next, 5_000)).toBe(4);
        expect(await t.db.query('select status, result from queue_jobs where id = $1', [next])).toEqual([{ status: 'completed', result: 4 }]);
      });

      test('addAndWait on a free slot runs without a row; a wait that ends first writes it (active, then finished)', async () => {
        const t = backend.db!();
        const q = await open();
        const queue = newQueueName();
        const gate = Promise.withResolvers<void>();
        const started = Promise.withResolvers<void>();
        await q.process<{ n: number }, number>(queue, async (job) => {
          if (job.data.n === 2) {
            started.resolve();
            await gate.promise;
          }
          return job.data.n;
        }, { concurrency: 1 });
        // Once the driver has seen the queue empty (its first look runs after `process`), a job
        // runs without a row.
        await until(async () => {
          const fast = crypto.randomUUID();
          expect(await q.addAndWait(queue, 'fast', { n: 1 }, { id: fast }, 5_000)).toBe(1);
          return (await t.db.query('select id from queue_jobs where id = $1', [fast])).length === 0;
        });
        const slow = crypto.randomUUID();
        const waited = rejection(q.addAndWait(queue, 'slow', { n: 2 }, { id: slow }, 200));
        await started.promise;
        expect(await t.db.query('select id from queue_jobs where id = $1', [slow])).toEqual([]);
        expect((await q.counts(queue)).active).toBe(1); // counted while it runs without a row
        expect(isWaitTimeout(await waited)).toBe(true);
        // From the timeout on, a crash would resume it: the row is there, active.
        expect(await t.db.query('select status, attempts from queue_jobs where id = $1', [slow])).toEqual([{ status: 'active', attempts: 1 }]);
        // The slot is still taken by the running job: this one queues (a row) and runs after it.
        const queued = q.addAndWait(queue, 'queued', { n: 3 }, {}, 5_000);
        gate.resolve();
        expect(await q.waitFor(slow, 5_000)).toBe(2);
        expect(await queued).toBe(3);
        expect(await t.db.query('select status, result from queue_jobs where id = $1', [slow])).toEqual([{ status: 'completed', result: 2 }]);
      });

      test('a job abandoned at close (grace over) is resumed by the next driver', async () => {
        const queue = newQueueName();
        const a = await open();
        let aborted = false;
        await a.process(queue, async (_job, signal) => {
          // The signal may already be aborted when the handler starts (close can run first on a busy machine).
          await new Promise<void>((resolve) => {
            const stop = () => ((aborted = true), resolve());
            if (signal.aborted) stop();
            else signal.addEventListener('abort', stop);
          });
          return 'from a';
        }, { concurrency: 1 });
        const id = await a.add(queue, 'j', null);
        await until(async () => (await a.counts(queue)).active === 1);
        await a.close(50);
        expect(aborted).toBe(true);
        const b = await open();
        await b.process(queue, async () => 'from b', { concurrency: 1 });
        expect(await b.waitFor(id, 5_000)).toBe('from b');
      });
    }

    if (backend.kind === 'bullmq') {
      test('an api-like driver adds and waits; a worker-like driver runs the job', async () => {
        const api = await open();
        const worker = await open();
        const queue = newQueueName();
        await worker.process<{ url: string }, { ok: string }>(queue, async (job) => ({ ok: job.data.url }), { concurrency: 2 });
        const id = await api.add(queue, 'scrape', { url: 'https://a.test/' });
        expect(await api.waitFor(id, 5_000)).toEqual({ ok: 'https://a.test/' });
        // Errors cross processes too, and so does cancel of an active job.
        const release = Promise.withResolvers<void>();
        const queue2 = newQueueName();
        let started = false;
        await worker.process(queue2, async (_job, signal) => {
          started = true;
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
        }, { concurrency: 1 });
        const id2 = await api.add(queue2, 'long', null);
        const waiting = rejection(api.waitFor(id2, 5_000));
        await until(() => started);
        expect(await api.cancel(id2)).toBe(true);
        expect((await waiting).code).toBe('SCRAPE_JOB_CANCELLED');
        release.resolve();
      });

      test('an unreachable Redis fails fast with BACKEND_UNAVAILABLE, password hidden', async () => {
        const started = Date.now();
        const e = await rejection(createBullmqQueue('redis://u:secret@127.0.0.1:1', silentLogger, { connectTimeoutMs: 300 }));
        expect(e.code).toBe('BACKEND_UNAVAILABLE');
        expect(e.message).not.toContain('secret');
        expect(Date.now() - started).toBeLessThan(20_000); // a hang bound: an unbounded connect would retry for ever
      });

      test('a SIGKILLed worker process: another worker picks the stalled job up', async () => {
        const queue = newQueueName();
        const api = await open();
        const id = await api.add(queue, 'stall-me', { n: 7 });
        const child = Bun.spawn(
          ['bun', 'test/helpers/queue-worker.ts', JSON.stringify({ redisUrl: REDIS_URL, prefix: backend.prefix, queue, lockDurationMs: 1_000 })],
          { stdout: 'pipe', stderr: 'inherit' },
        );
        let out = '';
        const reader = child.stdout.getReader();
        const deadline = Date.now() + 15_000;
        while (!out.includes(`started ${id}`)) {
          if (Date.now() > deadline) throw new Error(`child never started the job: ${out}`);
          const { value, done } = await reader.read();
          if (done) break;
          out += new TextDecoder().decode(value);
        }
        expect(out).toContain(`started ${id}`);
        child.kill('SIGKILL');
        await child.exited;
        expect(child.signalCode).toBe('SIGKILL');
        expect((await api.counts(queue)).active).toBe(1);
        const worker = await open({ lockDurationMs: 1_000, stalledIntervalMs: 300 });
        await worker.process<{ n: number }, number>(queue, async (job) => job.data.n * 6, { concurrency: 1 });
        expect(await api.waitFor(id, 60_000)).toBe(42); // taken over at all is the point; the bound catches a hang
      });
    }
  });
}
