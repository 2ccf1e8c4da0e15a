/**
 * The scheduler mode: timed work that must run once per deployment, not once per process. Any number
 * of `scheduler` (or `serve`) processes may run; they elect one leader through a lease row
 * (core/monitor/leader.ts) and only the leader works: every tick it claims due monitor checks
 * (core/monitor/tick.ts; issue 20 scope 3) and it runs the housekeeping tasks below on their intervals
 * (expired documents and scrape state, the search index, blobs, monitor check retention). A killed
 * leader is replaced within one lease period (`TRAWL_SCHEDULER_LEASE_MS`).
 *
 * With the embedded database this process is the only one that writes, so instead of a round every
 * tick the loop sleeps until its next due work (the earliest active monitor's `next_run_at`, the next
 * housekeeping task), woken early by monitor writes (core/monitor/wake.ts); while a check is queued or
 * running it still rounds every tick (re-queueing, silent checks). With Postgres it polls every tick.
 */
import type { Services } from './services.ts';
import { sweepCache } from './cache/store.ts';
import { sweepRecords } from './interact/records.ts';
import { reanalyzeStaleRows } from './search/local-index.ts';
import { sweepExtracts } from './extract/status.ts';
import { purgeExpiredAgents } from './agent/store.ts';
import { clockFor, type Clock } from './monitor/clock.ts';
import { acquireLease, newHolderId, releaseLease } from './monitor/leader.ts';
import { LEADER_LEASE, schedulerTick } from './monitor/tick.ts';
import { expireChecks } from './monitor/store.ts';
import { onSchedulerWake } from './monitor/wake.ts';

export interface ScheduledTask {
  name: string;
  /** Interval between runs, ms. */
  everyMs: number;
  run(services: Services): Promise<void>;
}

/** Built-in tasks. */
export const TASKS: ScheduledTask[] = [
  {
    name: 'expire-documents',
    everyMs: 10 * 60_000,
    async run(services) {
      await services.db.query('delete from documents where expires_at is not null and expires_at < now()');
    },
  },
  {
    name: 'expire-scrape-state',
    everyMs: 10 * 60_000,
    async run(services) {
      await sweepCache(services.db);
      await sweepRecords(services.db);
      await purgeExpiredAgents(services.db);
    },
  },
  {
    // Search index rows still to be analyzed (core/search/analyzer.ts, migration 0008): up to 10,000 a run.
    name: 'reanalyze-search-index',
    everyMs: 60_000,
    async run(services) {
      for (let i = 0; i < 50 && (await reanalyzeStaleRows(services.db)) > 0; i++);
    },
  },
  {
    // Extracts whose worker died and nobody reads (core/extract/status.ts), and results past 24 h.
    name: 'sweep-extracts',
    everyMs: 60_000,
    async run(services) {
      await sweepExtracts(services);
    },
  },
  {
    name: 'sweep-blobs',
    everyMs: 30 * 60_000,
    async run(services) {
      await services.blobs.sweep?.();
    },
  },
  {
    // Monitor checks and their pages older than the monitor's retentionDays (compat.md §15).
    name: 'expire-monitor-checks',
    everyMs: 10 * 60_000,
    async run(services) {
      await expireChecks(services.db);
    },
  },
];

export interface SchedulerOptions {
  tasks?: ScheduledTask[];
  /** The clock deciding which checks are due (default: TRAWL_SCHEDULER_CLOCK, else the system clock). */
  clock?: Clock;
  /** This process's lease holder id (default: host:pid:random). */
  holder?: string;
}

/** The longest sleep between rounds of the embedded-mode loop, ms (a bound, not a poll: tasks come sooner). */
const MAX_SLEEP_MS = 10 * 60_000;

/**
 * Embedded mode: how long the leader may sleep after a round, ms (`every` while a check is queued or
 * running, else until the earliest active monitor is due on `speed`× clock `clock`, at most `cap`).
 */
async function sleepFor(services: Services, clock: Clock, speed: number, every: number, cap: number): Promise<number> {
  const [row] = await services.db.query<{ next: Date | null; busy: boolean }>(
    `select (select min(next_run_at) from monitors where status = 'active') as next,
       exists (select 1 from monitor_checks where status in ('queued', 'running')) as busy`,
  );
  if (!row || row.busy) return every;
  if (row.next === null) return cap;
  return Math.min(cap, Math.max(0, (new Date(row.next).getTime() - clock.now()) / speed));
}

/**
 * Starts the leader loop: every `tickMs` take or renew the lease; as leader, tick and run due tasks.
 * Failures are logged, never thrown. Returns a function that stops the loop and gives the lease up.
 */
export function startScheduler(services: Services, opts: SchedulerOptions = {}): () => Promise<void> {
  const log = services.log.child({ component: 'scheduler' });
  const { leaseMs, tickMs } = services.config.scheduler;
  const clock = opts.clock ?? clockFor(services.config);
  const holder = opts.holder ?? newHolderId();
  const tasks = opts.tasks ?? TASKS;
  const lastRun = new Map<string, number>();
  let leader = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> = Promise.resolve();
  // Renew at least three times per lease, so one slow round does not lose it.
  const every = Math.min(tickMs, Math.floor(leaseMs / 3));
  // Sleep until due work only where this process is the only writer and the clock is one we can
  // predict (the system clock or the configured scaled one, `speed` times real time).
  const sleeps = services.db.kind === 'pglite' && !opts.clock;
  const speed = services.config.scheduler.clock?.speed ?? 1;
  let running = false;
  let wokenDuringRound = false;

  const round = async () => {
    const token = await acquireLease(services.db, LEADER_LEASE, holder, leaseMs);
    if ((token !== undefined) !== leader) log.info({ holder, token }, token !== undefined ? 'became scheduler leader' : 'lost scheduler leadership');
    leader = token !== undefined;
    if (token === undefined) return;
    const result = await schedulerTick(services, clock, holder, token);
    if (result.claimed > 0) log.info({ ...result, at: new Date(clock.now()).toISOString() }, 'monitor checks claimed');
    const now = Date.now();
    for (const task of tasks) {
      const last = lastRun.get(task.name);
      if (last === undefined) lastRun.set(task.name, now); // first run one interval after becoming leader
      else if (now - last >= task.everyMs) {
        lastRun.set(task.name, now);
        await task.run(services).catch((err) => log.warn({ err, task: task.name }, 'scheduled task failed'));
      }
    }
  };
  /** Embedded mode: ms until the next housekeeping task is due (tasks not yet run count from now). */
  const nextTaskIn = () => {
    const now = Date.now();
    let soonest = MAX_SLEEP_MS;
    for (const task of tasks) soonest = Math.min(soonest, (lastRun.get(task.name) ?? now) + task.everyMs - now);
    return Math.max(0, soonest);
  };
  const nextDelay = async (): Promise<number> => {
    if (!sleeps || !leader) return every;
    if (wokenDuringRound) return 0;
    return sleepFor(services, clock, speed, every, nextTaskIn()).catch((err) => {
      log.warn({ err }, 'scheduler could not read its next due time');
      return every;
    });
  };
  const loop = () => {
    if (stopped) return;
    running = true;
    wokenDuringRound = false;
    current = round()
      .catch((err) => log.warn({ err }, 'scheduler round failed'))
      .then(nextDelay)
      .then((delay) => {
        running = false;
        if (!stopped) timer = setTimeout(loop, delay);
      });
  };
  const stopWake = sleeps
    ? onSchedulerWake(() => {
        if (stopped) return;
        if (running) wokenDuringRound = true;
        else {
          clearTimeout(timer);
          timer = setTimeout(loop, 0);
        }
      })
    : () => {};
  loop();
  return async () => {
    stopped = true;
    stopWake();
    clearTimeout(timer);
    await current;
    if (leader) await releaseLease(services.db, LEADER_LEASE, holder).catch(() => {});
  };
}
