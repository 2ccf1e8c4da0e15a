/**
 * Monitors, checks and check pages in the database (migration 0021_monitors), and their wire views
 * (compat.md §15; the SDK's `Monitor`, `MonitorCheck`, `MonitorCheckPage` types). Times are sent as
 * ISO-8601 UTC; `schedule.cron` is always the cron that runs, even for a monitor created with `text`.
 */
import type { Queryable } from '../db/client.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';

export type MonitorStatus = 'active' | 'paused';
export type CheckStatus = 'queued' | 'running' | 'completed' | 'failed' | 'partial' | 'skipped_overlap' | 'skipped_no_credits';
export type PageStatus = 'same' | 'new' | 'changed' | 'removed' | 'error';

/** `summary` of a check (compat.md §15). */
export interface CheckSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export const EMPTY_SUMMARY: CheckSummary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };

/** Per-target progress stored in `target_results` (the SDK's MonitorTargetResult, plus our job id). */
export interface TargetResult {
  targetId: string;
  type: 'scrape' | 'crawl' | 'search';
  /** The batch scrape or crawl that scrapes the target's pages. */
  jobId?: string;
  expectedJobs?: string[];
  crawlId?: string;
  /** Search: result URLs (kept so a re-run does not search again), credits of the searches. */
  urls?: string[];
  searchCompleted?: boolean;
  resultCount?: number;
  searchCredits?: number;
  error?: string;
}

export interface MonitorRow {
  id: string;
  team_id: string;
  api_key_id: string | null;
  name: string;
  status: MonitorStatus;
  cron: string;
  schedule_text: string | null;
  timezone: string;
  /** Targets as sent (each with its `id`), re-resolved when a check runs. */
  targets: Record<string, any>[];
  /** The webhook as sent (`url` string or object), resolved with `resolveWebhook` when events are written. */
  webhook: WebhookSpec | Record<string, unknown> | string | null;
  notification: unknown;
  retention_days: number;
  goal: string | null;
  judge_enabled: boolean;
  next_run_at: Date | null;
  last_run_at: Date | null;
  current_check_id: string | null;
  last_check_summary: CheckSummary | null;
  created_at: Date;
  updated_at: Date;
}

export interface CheckRow {
  id: string;
  monitor_id: string;
  team_id: string;
  status: CheckStatus;
  trigger: 'scheduled' | 'manual';
  scheduled_for: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  summary: CheckSummary;
  target_results: Record<string, any>[];
  credits_used: number;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PageRow {
  ordinal: number;
  id: string;
  target_id: string;
  url: string;
  status: PageStatus;
  previous_scrape_id: string | null;
  current_scrape_id: string | null;
  status_code: number | null;
  error: string | null;
  diff: unknown;
  snapshot: unknown;
  metadata: unknown;
  created_at: Date;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The `Monitor` object of the wire. */
export function monitorView(m: MonitorRow): Record<string, unknown> {
  return {
    id: m.id,
    name: m.name,
    status: m.status,
    schedule: { cron: m.cron, ...(m.schedule_text ? { text: m.schedule_text } : {}), timezone: m.timezone },
    nextRunAt: m.status === 'active' ? iso(m.next_run_at) : null,
    lastRunAt: iso(m.last_run_at),
    currentCheckId: m.current_check_id,
    targets: m.targets,
    webhook: m.webhook ?? null,
    notification: m.notification ?? null,
    retentionDays: m.retention_days,
    lastCheckSummary: m.last_check_summary,
    goal: m.goal,
    judgeEnabled: m.judge_enabled,
    createdAt: iso(m.created_at),
    updatedAt: iso(m.updated_at),
  };
}

/** The `MonitorCheck` object of the wire. */
export function checkView(c: CheckRow): Record<string, unknown> {
  return {
    id: c.id,
    monitorId: c.monitor_id,
    status: c.status,
    trigger: c.trigger,
    scheduledFor: iso(c.scheduled_for),
    startedAt: iso(c.started_at),
    finishedAt: iso(c.finished_at),
    actualCredits: c.credits_used,
    billingStatus: 'not_applicable',
    summary: c.summary,
    targetResults: c.target_results,
    error: c.error,
    createdAt: iso(c.created_at),
    updatedAt: iso(c.updated_at),
  };
}

/** The `MonitorCheckPage` object of the wire. */
export function pageView(p: PageRow): Record<string, unknown> {
  return {
    id: p.id,
    targetId: p.target_id,
    url: p.url,
    status: p.status,
    previousScrapeId: p.previous_scrape_id,
    currentScrapeId: p.current_scrape_id,
    statusCode: p.status_code,
    error: p.error,
    metadata: p.metadata ?? null,
    changeTracking: (p.metadata as { changeTracking?: unknown } | null)?.changeTracking ?? null,
    diff: p.diff ?? null,
    snapshot: p.snapshot ?? null,
    createdAt: iso(p.created_at),
  };
}

export async function getMonitor(db: Queryable, id: string): Promise<MonitorRow | undefined> {
  const [row] = await db.query<MonitorRow>('select * from monitors where id = $1', [id]);
  return row;
}

export async function getCheck(db: Queryable, id: string): Promise<CheckRow | undefined> {
  const [row] = await db.query<CheckRow>('select * from monitor_checks where id = $1', [id]);
  return row;
}

/** A team's monitors, newest first. */
export async function listMonitors(db: Queryable, teamId: string, limit: number, offset: number): Promise<MonitorRow[]> {
  return db.query<MonitorRow>('select * from monitors where team_id = $1 order by created_at desc, id desc limit $2 offset $3', [teamId, limit, offset]);
}

/** A monitor's checks, newest first. */
export async function listChecks(db: Queryable, monitorId: string, limit: number, offset: number): Promise<CheckRow[]> {
  return db.query<CheckRow>('select * from monitor_checks where monitor_id = $1 order by created_at desc, id desc limit $2 offset $3', [monitorId, limit, offset]);
}

/** Pages of a check in order, optionally only one status; one more than `limit` tells whether more exist. */
export async function listPages(db: Queryable, checkId: string, skip: number, limit: number, status?: PageStatus): Promise<PageRow[]> {
  return status
    ? db.query<PageRow>('select * from monitor_pages where check_id = $1 and status = $2 order by ordinal limit $3 offset $4', [checkId, status, limit, skip])
    : db.query<PageRow>('select * from monitor_pages where check_id = $1 order by ordinal limit $2 offset $3', [checkId, limit, skip]);
}

/**
 * Deletes finished checks (and their pages) older than their monitor's `retentionDays` (housekeeping).
 * @returns how many checks were deleted
 */
export async function expireChecks(db: Queryable): Promise<number> {
  const rows = await db.query(
    `delete from monitor_checks c using monitors m
     where m.id = c.monitor_id and c.status not in ('queued', 'running')
       and c.created_at < now() - (m.retention_days * interval '1 day') returning c.id`,
  );
  return rows.length;
}
