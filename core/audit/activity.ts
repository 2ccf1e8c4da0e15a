/**
 * The team's activity (issue 17): one row per piece of work a team asked for, written where the work
 * is accepted or ends, read by GET /v2/team/activity. The row keeps kind, status, credits, time, the
 * URL (never for zero data retention work) and the request's `auditMetadata` ({username}) for audit
 * attribution (compat.md §2.2). Crawl and batch rows read their live status and credits from `jobs`.
 */
import type { Queryable } from '../db/client.ts';
import { keepsNoData } from '../privacy/retention.ts';
import { rowAdditive } from '../store/sql-merge.ts';

/** `auditMetadata` as requests give it (compat.md §2.2): who asked, for the audit list only. */
export interface AuditMetadata {
  username: string;
}

export interface ActivityEntry {
  id: string;
  teamId: string;
  kind: 'scrape' | 'crawl' | 'batch_scrape' | 'map' | 'search' | 'parse' | 'agent';
  status: string;
  /** Dropped (stored null) when `zeroDataRetention` is set. */
  url?: string;
  credits?: number;
  auditMetadata?: AuditMetadata;
  zeroDataRetention: boolean;
}

/** The `auditMetadata` of a request body when it has the documented shape, else undefined. */
export function auditMetadataOf(body: unknown): AuditMetadata | undefined {
  const a = (body as { auditMetadata?: unknown } | undefined)?.auditMetadata as { username?: unknown } | undefined;
  return a && typeof a.username === 'string' ? { username: a.username } : undefined;
}

// Times in whole milliseconds, so a paging cursor (an ISO time) compares exactly.
const UPSERT_ACTIVITY = rowAdditive(`insert into team_activity (id, team_id, kind, status, url, credits_used, audit_metadata, zero_data_retention, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, date_trunc('milliseconds', now()), now())
     on conflict (id) do update set status = excluded.status, credits_used = greatest(team_activity.credits_used, excluded.credits_used),
       updated_at = now()`);

/**
 * Records or updates one activity row (idempotent per id: a later call updates status and credits).
 * Callers pass the error on to their logger; an audit row never fails the work itself.
 */
export async function recordActivity(db: Queryable, e: ActivityEntry): Promise<void> {
  await db.query(
    UPSERT_ACTIVITY,
    [e.id, e.teamId, e.kind, e.status, e.zeroDataRetention ? null : (e.url ?? null), Math.round(e.credits ?? 0), e.auditMetadata ?? null, e.zeroDataRetention],
  );
}

/** One item of GET /v2/team/activity. */
export interface ActivityItem {
  id: string;
  kind: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  creditsUsed: number;
  url?: string;
  zeroDataRetention: boolean;
  auditMetadata?: AuditMetadata;
}

/** Opaque paging cursor: the last item's time and id. */
export function encodeCursor(item: Pick<ActivityItem, 'createdAt' | 'id'>): string {
  return Buffer.from(`${item.createdAt}|${item.id}`).toString('base64url');
}

/** @returns the cursor's time and id, or undefined when it is not one of ours */
export function decodeCursor(cursor: string): { createdAt: string; id: string } | undefined {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) return undefined;
  return { createdAt, id };
}

/**
 * A page of a team's activity, newest first.
 * @param limit  items per page (1–100)
 * @param after  cursor of the previous page's last item
 * @returns the items and, when more exist, the cursor of the next page
 */
export async function listActivity(db: Queryable, teamId: string, limit: number, after?: { createdAt: string; id: string }): Promise<{ items: ActivityItem[]; next?: string }> {
  const rows = await db.query<any>(
    `select a.id, a.kind, coalesce(j.status, a.status) as status, a.created_at, greatest(a.updated_at, coalesce(j.updated_at, a.updated_at)) as updated_at,
            greatest(a.credits_used, coalesce(j.credits_used, 0)) as credits_used, a.url, a.zero_data_retention, a.audit_metadata
       from team_activity a left join jobs j on j.id = a.id and a.kind in ('crawl', 'batch_scrape')
      where a.team_id = $1 and ($2::timestamptz is null or (a.created_at, a.id) < ($2::timestamptz, $3::text))
      order by a.created_at desc, a.id desc
      limit $4`,
    [teamId, after?.createdAt ?? null, after?.id ?? '', limit + 1],
  );
  const items: ActivityItem[] = rows.slice(0, limit).map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    creditsUsed: Number(r.credits_used),
    ...(r.url && !r.zero_data_retention ? { url: r.url } : {}),
    zeroDataRetention: Boolean(r.zero_data_retention),
    ...(r.audit_metadata ? { auditMetadata: r.audit_metadata } : {}),
  }));
  return { items, next: rows.length > limit ? encodeCursor(items[items.length - 1]!) : undefined };
}

/** What the activity of a single scrape or parse needs of its queued job. */
export interface ScrapeActivityFacts {
  scrapeId: string;
  teamId: string;
  /** Set for crawl and batch pages: those are listed as their crawl or batch, not one by one. */
  jobId?: string;
  sourceURL: string;
  options: { zeroDataRetention: boolean; lockdown?: boolean; auditMetadata?: AuditMetadata };
  /** Present on parse jobs (core/jobs/parse.ts). */
  file?: unknown;
}

/**
 * Records a finished single scrape or parse (nothing for crawl and batch pages). Lockdown counts as
 * zero data retention: no URL is kept. Never throws; a failure is logged.
 */
export async function recordScrapeActivity(
  db: Queryable,
  data: ScrapeActivityFacts,
  status: 'completed' | 'failed',
  credits: number,
  log: { warn(obj: object, msg: string): void },
): Promise<void> {
  if (data.jobId !== undefined) return;
  await recordActivity(db, {
    id: data.scrapeId,
    teamId: data.teamId,
    kind: data.file !== undefined ? 'parse' : 'scrape',
    status,
    url: data.sourceURL,
    credits,
    auditMetadata: data.options.auditMetadata,
    zeroDataRetention: keepsNoData(data.options),
  }).catch((err) => log.warn({ err }, 'could not record the activity of a scrape'));
}
