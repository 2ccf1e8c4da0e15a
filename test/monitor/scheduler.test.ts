/**
 * The scheduler's guarantees on both databases (issue 20 scope 3), with a manual clock: one lease
 * holder at a time, taken over when it expires with a larger token and refused to the old holder;
 * due checks claimed once per slot whichever holder ticks (and when two tick at the same slot); a
 * check still queued when the next slot comes is `skipped_overlap`; a team without credits gets
 * `skipped_no_credits`; missed slots are caught up one by one; checks are queued once.
 */
import { afterEach, expect, test } from 'bun:test';
import { forEachDatabase, openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { silentLogger } from '../../core/log.ts';
import { loadConfig } from '../../core/config.ts';
import { createMemoryQueue } from '../../core/queue/memory.ts';
import type { QueueDriver } from '../../core/queue/types.ts';
import type { Services } from '../../core/services.ts';
import { manualClock } from '../../core/monitor/clock.ts';
import { acquireLease, releaseLease } from '../../core/monitor/leader.ts';
import { LEADER_LEASE, schedulerTick } from '../../core/monitor/tick.ts';
import { createTeam } from '../../core/auth/keys.ts';
import { claimCheck } from '../../core/monitor/checks.ts';
import { expireChecks } from '../../core/monitor/store.ts';

const T0 = Date.parse('2026-03-01T10:00:30Z');
const MIN = 60_000;
let t: TestDatabase | undefined;
let queue: QueueDriver | undefined;
afterEach(async () => {
  await queue?.close(100);
  await t?.close();
  t = queue = undefined;
});

async function setup(kind: 'pglite' | 'postgres', credits = 1000) {
  t = await openTestDatabase(kind);
  queue = await createMemoryQueue(t.db, silentLogger, { pollMs: 60_000 });
  const services = { db: t.db, queue, log: silentLogger, config: loadConfig({ TRAWL_LOG_LEVEL: 'silent' }) } as unknown as Services;
  const team = await createTeam(t.db, 'monitors', credits, 5);
  const monitor = crypto.randomUUID();
  await t.db.query(
    `insert into monitors (id, team_id, name, cron, timezone, targets, next_run_at) values ($1, $2, 'm', '* * * * *', 'UTC', '[]'::jsonb, $3)`,
    [monitor, team, new Date(T0 + 30_000)],
  );
  return { db: t.db, services, monitor };
}

const checksOf = (db: TestDatabase['db'], monitor: string) =>
  db.query<{ id: string; status: string; scheduled_for: Date }>('select id, status, scheduled_for from monitor_checks where monitor_id = $1 order by scheduled_for', [monitor]);

forEachDatabase((kind) => {
  test('one lease holder; expiry hands it over with a larger token; the old holder can no longer tick', async () => {
    const { db, services } = await setup(kind);
    const a = await acquireLease(db, LEADER_LEASE, 'a', 800);
    expect(a).toBe(1);
    expect(await acquireLease(db, LEADER_LEASE, 'b', 800)).toBeUndefined();
    expect(await acquireLease(db, LEADER_LEASE, 'a', 800)).toBe(1); // renewal keeps the token
    await Bun.sleep(1_000);
    const b = await acquireLease(db, LEADER_LEASE, 'b', 60_000);
    expect(b).toBe(2);
    expect(await acquireLease(db, LEADER_LEASE, 'a', 800)).toBeUndefined();
    expect((await schedulerTick(services, manualClock(T0 + 10 * MIN), 'a', a!)).leader).toBe(false);
    expect((await db.query('select 1 from monitor_checks')).length).toBe(0);
    await releaseLease(db, LEADER_LEASE, 'b');
    expect(await acquireLease(db, LEADER_LEASE, 'a', 800)).toBe(3);
  }, 60_000);

  test('10 ticks from two holders in turn: every slot claimed once; overlap while the previous check is queued', async () => {
    const { db, services, monitor } = await setup(kind);
    const clock = manualClock(T0);
    let token: number | undefined;
    let holder = '';
    for (let minute = 1; minute <= 10; minute++) {
      clock.set(T0 + minute * MIN);
      if (holder) await releaseLease(db, LEADER_LEASE, holder);
      holder = minute % 2 ? 'a' : 'b';
      token = await acquireLease(db, LEADER_LEASE, holder, 60_000);
      // The same tick twice (a retried or doubled tick) claims nothing more.
      const r1 = await schedulerTick(services, clock, holder, token!);
      const r2 = await schedulerTick(services, clock, holder, token!);
      expect({ minute, claimed: r1.claimed + r2.claimed }).toEqual({ minute, claimed: 1 });
      // Odd minutes: the check "runs" and finishes before the next slot; even: it is left queued.
      if (minute % 2 === 1) await db.query(`update monitor_checks set status = 'completed' where monitor_id = $1 and status = 'queued'`, [monitor]);
    }
    const checks = await checksOf(db, monitor);
    expect(checks.map((c) => c.scheduled_for.toISOString())).toEqual(Array.from({ length: 10 }, (_, i) => new Date(Date.parse('2026-03-01T10:01:00Z') + i * MIN).toISOString()));
    // An even minute's check is still queued at the next (odd) slot, which is skipped.
    expect(checks.map((c) => c.status)).toEqual([
      'completed', 'completed', 'skipped_overlap', 'completed', 'skipped_overlap', 'completed', 'skipped_overlap', 'completed', 'skipped_overlap', 'queued',
    ]);
    const queued = await db.query<{ id: string }>(`select id from queue_jobs where queue = 'monitor' order by id`);
    expect(queued.map((q) => q.id).sort()).toEqual([0, 1, 3, 5, 7, 9].map((i) => `${checks[i].id}.check`).sort());
    const [m] = await db.query<{ next_run_at: Date; current_check_id: string }>('select next_run_at, current_check_id from monitors where id = $1', [monitor]);
    expect(m.next_run_at.toISOString()).toBe('2026-03-01T10:11:00.000Z');
    expect(m.current_check_id).toBe(checks[9].id);
  }, 60_000);

  test('the same slot claimed by 8 transactions at once (no lease check) makes one check', async () => {
    const { db, monitor } = await setup(kind);
    const at = new Date(T0 + MIN);
    const got = await Promise.all(Array.from({ length: 8 }, () => db.transaction((tx) => claimCheck(tx, monitor, { trigger: 'scheduled', at }))));
    expect(got.filter(Boolean).length).toBe(1);
    expect((await checksOf(db, monitor)).length).toBe(1);
  }, 60_000);

  test('housekeeping deletes finished checks older than retentionDays, with their pages', async () => {
    const { db, monitor } = await setup(kind);
    await db.query('update monitors set retention_days = 2 where id = $1', [monitor]);
    const add = (id: string, status: string, ageDays: number) =>
      db.query(`insert into monitor_checks (id, monitor_id, team_id, status, trigger, created_at) select $1, id, team_id, $2, 'manual', now() - ($3::int * interval '1 day') from monitors where id = $4`, [id, status, ageDays, monitor]);
    await add('old', 'completed', 3);
    await add('old-running', 'running', 3);
    await add('young', 'completed', 1);
    await db.query(`insert into monitor_pages (check_id, ordinal, id, target_id, url, status) values ('old', 0, 'p', 't', 'http://x/', 'new')`);
    expect(await expireChecks(db)).toBe(1);
    expect((await db.query<{ id: string }>('select id from monitor_checks order by id')).map((r) => r.id)).toEqual(['old-running', 'young']);
    expect((await db.query('select 1 from monitor_pages')).length).toBe(0);
  }, 60_000);

  test('a running check whose worker went silent is failed, and the next slot runs instead of overlapping', async () => {
    const { db, services, monitor } = await setup(kind);
    await db.query(`insert into monitor_checks (id, monitor_id, team_id, status, trigger, updated_at) select 'stuck', id, team_id, 'running', 'manual', now() - interval '10 minutes' from monitors where id = $1`, [monitor]);
    await db.query(`insert into monitor_checks (id, monitor_id, team_id, status, trigger) select 'alive', id, team_id, 'running', 'manual' from monitors where id = $1`, [monitor]);
    await db.query(`update monitors set current_check_id = 'stuck' where id = $1`, [monitor]);
    const token = await acquireLease(db, LEADER_LEASE, 'a', 60_000);
    await schedulerTick(services, manualClock(T0), 'a', token!); // nothing due yet: only the sweep
    const rows = await db.query<{ id: string; status: string; error: string | null }>(`select id, status, error from monitor_checks order by id`);
    expect(rows).toEqual([{ id: 'alive', status: 'running', error: null }, { id: 'stuck', status: 'failed', error: 'The worker running this check stopped' }]);
    await schedulerTick(services, manualClock(T0 + MIN), 'a', token!);
    expect((await checksOf(db, monitor)).filter((c) => c.scheduled_for).map((c) => c.status)).toEqual(['queued']);
  }, 60_000);

  test('missed slots are caught up one by one; a team without credits gets skipped_no_credits', async () => {
    const { db, services, monitor } = await setup(kind, 0);
    const token = await acquireLease(db, LEADER_LEASE, 'a', 60_000);
    const r = await schedulerTick(services, manualClock(T0 + 5 * MIN + 10_000), 'a', token!);
    expect(r).toEqual({ leader: true, claimed: 5, queued: 0 });
    const checks = await checksOf(db, monitor);
    expect(checks.map((c) => c.status)).toEqual(Array(5).fill('skipped_no_credits'));
    expect((await db.query('select 1 from queue_jobs')).length).toBe(0);
  }, 60_000);
});
