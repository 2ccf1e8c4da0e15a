/**
 * The scheduler mode: periodic housekeeping that must run once per deployment, not once per worker —
 * deleting expired documents (24 h retention, interface.md Limits) and other timed work later issues
 * add (monitors, webhook retries). Each task is a named function run on an interval.
 */
import type { Services } from './services.ts';
import { sweepCache } from './cache/store.ts';
import { sweepRecords } from './interact/records.ts';
import { reanalyzeStaleRows } from './search/local-index.ts';
import { sweepExtracts } from './extract/status.ts';
import { purgeExpiredAgents } from './agent/store.ts';

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
];

/**
 * Starts every task on its interval; returns a function that stops them.
 * Task failures are logged, never thrown.
 */
export function startScheduler(services: Services, tasks: ScheduledTask[] = TASKS): () => void {
  const log = services.log.child({ component: 'scheduler' });
  const timers = tasks.map((task) => {
    const tick = () =>
      task.run(services).catch((err) => log.warn({ err, task: task.name }, 'scheduled task failed'));
    return setInterval(tick, task.everyMs);
  });
  return () => timers.forEach(clearInterval);
}
