/**
 * Monitor management (compat.md §15), without HTTP: create, update (pause/resume, new schedule or
 * targets), delete, and a manual run. Who may see a monitor: its team only (another team's → 403,
 * unknown or malformed id → 404, as for jobs, compat.md §1.1).
 */
import type { Services } from '../services.ts';
import type { Principal } from '../auth/authenticate.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { assertFetchable } from '../net/address.ts';
import { resolveWebhook } from '../webhooks/spec.ts';
import type { Clock } from './clock.ts';
import { nextRunAfter, resolveSchedule, type Schedule } from './schedule.ts';
import { resolveTargets, targetUrls, type ResolvedTarget } from './targets.ts';
import { getMonitor, type CheckRow, type MonitorRow } from './store.ts';
import { claimCheck, enqueueCheck } from './checks.ts';
import { wakeScheduler } from './wake.ts';

export interface MonitorInput {
  name?: string;
  status?: 'active' | 'paused';
  schedule?: { cron?: string; text?: string; timezone?: string };
  targets?: unknown[];
  webhook?: unknown;
  notification?: unknown;
  retentionDays?: number;
  goal?: string | null;
  judgeEnabled?: boolean;
}

const bad = (m: string) => new TrawlError('BAD_REQUEST', m);

/**
 * The monitor `id` of team `teamId`.
 * @throws TrawlError NOT_FOUND (unknown id), FORBIDDEN (another team's monitor)
 */
export async function monitorForTeam(services: Pick<Services, 'db'>, id: string, teamId: string): Promise<MonitorRow> {
  const m = await getMonitor(services.db, id.toLowerCase());
  if (!m) throw new TrawlError('NOT_FOUND', 'Monitor not found');
  if (m.team_id !== teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
  return m;
}

/** Checks the parts of a create or update body other than targets and schedule. */
function checkFields(input: MonitorInput): void {
  if (input.name !== undefined && (typeof input.name !== 'string' || !input.name.trim() || input.name.length > 200)) throw bad('name must be a non-empty string of at most 200 characters');
  if (input.retentionDays !== undefined && (!Number.isInteger(input.retentionDays) || input.retentionDays < 1 || input.retentionDays > 365)) {
    throw bad('retentionDays must be an integer from 1 to 365');
  }
  if (input.status !== undefined && input.status !== 'active' && input.status !== 'paused') throw bad('status must be "active" or "paused"');
  if (input.judgeEnabled === true) throw bad('judgeEnabled is not supported by this server: leave it out or set it to false');
}

/**
 * Resolves targets and checks every start URL against the SSRF policy.
 * @throws TrawlError BAD_REQUEST / UNSAFE_TARGET
 */
export async function checkTargets(services: Services, raw: unknown, monitorId: string) {
  const t = resolveTargets(raw, monitorId, services.formats);
  for (const url of targetUrls(t.resolved)) await assertFetchable(url, services.config.targets);
  return t;
}

/** The next run of `schedule` after the clock's now. */
function nextRun(schedule: Schedule, clock: Clock): Date | null {
  return nextRunAfter(schedule, new Date(clock.now())) ?? null;
}

/**
 * Creates a monitor; its first scheduled check is the schedule's next time.
 * @param resolved the targets as `checkTargets` resolved them (the route checks key restrictions on them first)
 * @throws TrawlError BAD_REQUEST for a missing name, a bad schedule, time zone, targets or webhook
 */
export async function createMonitor(
  services: Services, principal: Principal, input: MonitorInput, id: string, stored: Record<string, any>[], clock: Clock,
): Promise<MonitorRow> {
  if (input.name === undefined) throw bad('name is required');
  checkFields(input);
  const schedule = resolveSchedule(input.schedule);
  if (input.webhook !== undefined) resolveWebhook(input.webhook);
  const [row] = await services.db.query<MonitorRow>(
    `insert into monitors (id, team_id, api_key_id, name, status, cron, schedule_text, timezone, targets, webhook, notification, retention_days, goal, judge_enabled, next_run_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, false, $14) returning *`,
    [
      id, principal.teamId, principal.keyId ?? null, input.name.trim(), input.status ?? 'active', schedule.cron, schedule.text ?? null, schedule.timezone,
      JSON.stringify(stored), input.webhook === undefined ? null : JSON.stringify(input.webhook), input.notification === undefined ? null : JSON.stringify(input.notification),
      input.retentionDays ?? 30, input.goal ?? null, nextRun(schedule, clock),
    ],
  );
  wakeScheduler();
  return row;
}

/**
 * Updates a monitor. A new schedule, or resuming a paused monitor, sets the next run from now.
 * @throws TrawlError as `createMonitor`
 */
export async function updateMonitor(
  services: Services, m: MonitorRow, input: MonitorInput, stored: Record<string, any>[] | undefined, clock: Clock,
): Promise<MonitorRow> {
  checkFields(input);
  const schedule = input.schedule !== undefined ? resolveSchedule({ timezone: m.timezone, ...input.schedule }) : { cron: m.cron, text: m.schedule_text ?? undefined, timezone: m.timezone };
  if (input.webhook !== undefined && input.webhook !== null) resolveWebhook(input.webhook);
  const status = input.status ?? m.status;
  const reschedule = input.schedule !== undefined || (status === 'active' && m.status === 'paused');
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  const [row] = await services.db.query<MonitorRow>(
    `update monitors set name = $2, status = $3, cron = $4, schedule_text = $5, timezone = $6, targets = $7,
       webhook = $8, notification = $9, retention_days = $10, goal = $11,
       next_run_at = case when $12 then $13::timestamptz else next_run_at end, updated_at = now()
     where id = $1 returning *`,
    [
      m.id, input.name?.trim() ?? m.name, status, schedule.cron, schedule.text ?? null, schedule.timezone, JSON.stringify(stored ?? m.targets),
      input.webhook === undefined ? json(m.webhook) : json(input.webhook), input.notification === undefined ? json(m.notification) : json(input.notification),
      input.retentionDays ?? m.retention_days, input.goal === undefined ? m.goal : input.goal, reschedule, nextRun(schedule, clock),
    ],
  );
  wakeScheduler();
  return row;
}

/** Deletes a monitor with its checks and pages (a running check stops at its next step). */
export async function deleteMonitor(services: Pick<Services, 'db'>, m: MonitorRow): Promise<void> {
  await services.db.query('delete from monitors where id = $1', [m.id]);
}

/**
 * Starts a manual check now.
 * @throws TrawlError CONFLICT (409) when the monitor is paused or a check of it is queued or running
 */
export async function runMonitorNow(services: Services, m: MonitorRow, clock: Clock): Promise<CheckRow> {
  if (m.status === 'paused') throw new TrawlError('CONFLICT', 'The monitor is paused; resume it (PATCH status "active") before running it');
  const check = await services.db.transaction((tx) => claimCheck(tx, m.id, { trigger: 'manual', at: new Date(clock.now()) }));
  if (!check) throw new TrawlError('NOT_FOUND', 'Monitor not found');
  if (check.status === 'skipped_overlap') throw new TrawlError('CONFLICT', 'A check of this monitor is already running; wait for it to finish');
  if (check.status === 'skipped_no_credits') throw new TrawlError('PAYMENT_REQUIRED', 'Insufficient credits: a check needs at least 1 credit. Add credits to continue.');
  await enqueueCheck(services, check.id);
  wakeScheduler(); // a queued check: the scheduler watches it until it finishes
  return check;
}

export type { ResolvedTarget };
export { newId as newMonitorId };
