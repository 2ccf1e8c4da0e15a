/**
 * The embedded-mode scheduler sleeps instead of polling (issue 22 scope 3, idle CPU): with a tick of
 * ten minutes it still claims a monitor created after it went to sleep, because the write wakes it
 * (core/monitor/wake.ts), and then claims it when it comes due without another wake (it slept until
 * the monitor's `next_run_at`, not for a tick). Without the wake the check would come ten minutes late.
 */
import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { silentLogger } from '../../core/log.ts';
import { loadConfig } from '../../core/config.ts';
import { createMemoryQueue } from '../../core/queue/memory.ts';
import type { QueueDriver } from '../../core/queue/types.ts';
import type { Services } from '../../core/services.ts';
import { createTeam } from '../../core/auth/keys.ts';
import { startScheduler } from '../../core/scheduler.ts';
import { wakeScheduler } from '../../core/monitor/wake.ts';

let t: TestDatabase | undefined;
let queue: QueueDriver | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  await queue?.close(100);
  await t?.close();
  t = queue = stop = undefined;
});

/** Waits up to `ms` for `f` to be true (a hang bound, not a timing assertion). */
async function until(f: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await f()) return true;
    await Bun.sleep(100);
  }
  return false;
}

test('embedded: a new monitor wakes the sleeping scheduler, which then sleeps until it is due', async () => {
  t = await openTestDatabase('pglite');
  const db = t.db;
  queue = await createMemoryQueue(db, silentLogger, { pollMs: 60_000 });
  const config = loadConfig({ TRAWL_LOG_LEVEL: 'silent', TRAWL_SCHEDULER_TICK_MS: '600000', TRAWL_SCHEDULER_LEASE_MS: '1800000' });
  const services = { db, queue, log: silentLogger, config } as unknown as Services;
  const team = await createTeam(db, 'monitors', 1000, 5);
  stop = startScheduler(services, { tasks: [] });
  // Leader and asleep: the lease row is there.
  expect(await until(async () => (await db.query('select 1 from scheduler_leases')).length > 0, 30_000)).toBe(true);
  await Bun.sleep(300);

  const monitor = crypto.randomUUID();
  const due = Date.now() + 1_500;
  await db.query(
    `insert into monitors (id, team_id, name, cron, timezone, targets, next_run_at) values ($1, $2, 'm', '* * * * *', 'UTC', '[]'::jsonb, $3)`,
    [monitor, team, new Date(due)],
  );
  wakeScheduler();
  const claimed = await until(async () => (await db.query('select 1 from monitor_checks where monitor_id = $1', [monitor])).length > 0, 60_000);
  expect(claimed).toBe(true);
  // Not claimed before it was due (the round the wake started found nothing due yet).
  const [check] = await db.query<{ scheduled_for: Date }>('select scheduled_for from monitor_checks where monitor_id = $1', [monitor]);
  expect(new Date(check.scheduled_for).getTime()).toBe(due);
});
