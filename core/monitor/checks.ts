/**
 * Claiming a monitor check (issue 20 scope 3): in one transaction with the monitor row locked, decide
 * the check's fate, insert its row and move the monitor's schedule on. A scheduled check is unique per
 * monitor and slot (`monitor_checks_slot_idx`), so a slot claimed twice (two leaders for a moment, a
 * retried tick) inserts one row. A check whose previous one is still queued or running is recorded as
 * `skipped_overlap`; a team without credits gets `skipped_no_credits`. Queued checks go to the
 * `monitor` queue by id, so adding one twice runs it once.
 */
import type { Services } from '../services.ts';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { teamBalance } from '../credits/ledger.ts';
import { nextRunAfter } from './schedule.ts';
import type { CheckRow, CheckStatus, MonitorRow } from './store.ts';

export const MONITOR_QUEUE = 'monitor';

/** Queue message of a check. */
export interface CheckMessage {
  checkId: string;
}

/** Slots further behind than this are not caught up one by one: the schedule jumps to now. */
const MAX_CATCH_UP_MS = 24 * 3600_000;

export interface ClaimSpec {
  trigger: 'scheduled' | 'manual';
  /** The scheduler clock's now. */
  at: Date;
}

/**
 * Claims the next check of monitor `monitorId` (inside `tx`). Scheduled: the slot is the monitor's
 * `next_run_at`, which must be due (≤ `at`), and the schedule moves to the following slot. Manual: a
 * check now, not inserted unless it can run (the caller answers 409/402).
 * @returns the inserted check (or, manual and refused, an unsaved row with the refusal status);
 *          undefined when the monitor is gone, paused (scheduled), not due, or the slot was claimed already
 */
export async function claimCheck(tx: Queryable, monitorId: string, spec: ClaimSpec): Promise<CheckRow | undefined> {
  const [m] = await tx.query<MonitorRow>('select * from monitors where id = $1 for update', [monitorId]);
  if (!m) return undefined;
  const scheduled = spec.trigger === 'scheduled';
  if (scheduled && (m.status !== 'active' || !m.next_run_at || m.next_run_at.getTime() > spec.at.getTime())) return undefined;
  let status: CheckStatus = 'queued';
  if (m.current_check_id) {
    const [cur] = await tx.query<{ status: string }>('select status from monitor_checks where id = $1', [m.current_check_id]);
    if (cur && (cur.status === 'queued' || cur.status === 'running')) status = 'skipped_overlap';
  }
  if (status === 'queued' && ((await teamBalance(tx, m.team_id)) ?? 0) < 1) status = 'skipped_no_credits';
  const slot = scheduled ? m.next_run_at! : null;
  if (scheduled) {
    const from = spec.at.getTime() - slot!.getTime() > MAX_CATCH_UP_MS ? spec.at : slot!;
    await tx.query('update monitors set next_run_at = $2, updated_at = now() where id = $1', [m.id, nextRunAfter(m, from) ?? null]);
  }
  const refused = !scheduled && status !== 'queued';
  if (refused) return { status } as CheckRow;
  const skipped = status !== 'queued';
  const [check] = await tx.query<CheckRow>(
    `insert into monitor_checks (id, monitor_id, team_id, status, trigger, scheduled_for, finished_at, error)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing returning *`,
    [
      newId(), m.id, m.team_id, status, spec.trigger, slot, skipped ? new Date() : null,
      status === 'skipped_overlap' ? 'The previous check was still running' : status === 'skipped_no_credits' ? 'The team has no credits left' : null,
    ],
  );
  if (check && !skipped) await tx.query('update monitors set current_check_id = $2, last_run_at = $3 where id = $1', [m.id, check.id, spec.at]);
  return check;
}

/** Queues a check (id-keyed: adding it again is a no-op). Failures are logged; the scheduler re-queues. */
export async function enqueueCheck(services: Pick<Services, 'queue' | 'log'>, checkId: string): Promise<void> {
  await services.queue
    .add<CheckMessage>(MONITOR_QUEUE, 'check', { checkId }, { id: `${checkId}.check` })
    .catch((err) => services.log.warn({ err, checkId }, 'could not queue a monitor check; the scheduler will retry'));
}
