/**
 * The leader's tick (issue 20 scope 3): claim every due scheduled check in transactions that first
 * re-check the leader lease (fencing), then queue the claimed checks. A leader killed between the
 * commit and the queueing leaves `queued` checks behind; every tick re-queues queued checks older than
 * a few seconds (queueing is keyed by check id, so a check is never queued twice). A running check
 * shows it is alive every few seconds (core/monitor/runner.ts); one silent for `STALLED_AFTER_MS` (its
 * worker died and the queue gave the job up) is failed, so its monitor's next slot runs instead of
 * being skipped as an overlap forever.
 */
import type { Services } from '../services.ts';
import type { Clock } from './clock.ts';
import { holdsLease } from './leader.ts';
import { claimCheck, enqueueCheck } from './checks.ts';

/** The lease the scheduler leader holds. */
export const LEADER_LEASE = 'scheduler';
/** Monitors claimed per transaction, and transactions per tick. */
const BATCH = 50;
const ROUNDS = 20;
/** A queued check older than this without running is queued again, ms. */
const REQUEUE_AFTER_MS = 5_000;
/** A running check silent this long is failed, ms. */
export const STALLED_AFTER_MS = 300_000;

export interface TickResult {
  /** False when the lease was lost before the tick could claim. */
  leader: boolean;
  /** Checks inserted (queued and skipped). */
  claimed: number;
  queued: number;
}

/**
 * Runs one tick as `holder` with lease token `token`.
 * @throws what the database throws (the caller logs it and tries again next tick)
 */
export async function schedulerTick(services: Services, clock: Clock, holder: string, token: number): Promise<TickResult> {
  const out: TickResult = { leader: true, claimed: 0, queued: 0 };
  const at = new Date(clock.now());
  for (let round = 0; round < ROUNDS; round++) {
    const checks = await services.db.transaction(async (tx) => {
      if (!(await holdsLease(tx, LEADER_LEASE, holder, token))) return undefined;
      const due = await tx.query<{ id: string }>(
        `select id from monitors where status = 'active' and next_run_at <= $1 order by next_run_at limit ${BATCH} for update skip locked`,
        [at],
      );
      const claimed = [];
      for (const d of due) {
        const c = await claimCheck(tx, d.id, { trigger: 'scheduled', at });
        if (c) claimed.push(c);
      }
      return { claimed, due: due.length };
    });
    if (!checks) return { ...out, leader: false };
    out.claimed += checks.claimed.length;
    for (const c of checks.claimed) {
      if (c.status !== 'queued') continue;
      await enqueueCheck(services, c.id);
      out.queued++;
    }
    if (checks.due === 0) break; // caught up (missed slots are claimed one per round)
  }
  const stale = await services.db.query<{ id: string }>(
    `select id from monitor_checks where status = 'queued' and created_at < now() - ($1::int * interval '1 millisecond') limit 500`,
    [REQUEUE_AFTER_MS],
  );
  for (const s of stale) await enqueueCheck(services, s.id);
  // Read first: the update (a write lock on the table) only when a check has gone silent.
  const silent = await services.db.query<{ id: string }>(
    `select id from monitor_checks where status = 'running' and updated_at < now() - ($1::int * interval '1 millisecond') limit 500`,
    [STALLED_AFTER_MS],
  );
  if (silent.length > 0) {
    await services.db.query(
      `with failed as (
         update monitor_checks set status = 'failed', finished_at = now(), updated_at = now(), error = 'The worker running this check stopped'
         where id = any($1::text[]) and status = 'running' and updated_at < now() - ($2::int * interval '1 millisecond') returning id, monitor_id)
       update monitors m set current_check_id = null from failed f where m.id = f.monitor_id and m.current_check_id = f.id`,
      [silent.map((r) => r.id), STALLED_AFTER_MS],
    );
  }
  return out;
}
