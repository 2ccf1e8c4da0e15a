/**
 * Crawl and batch scrape jobs in the database, the reads: a job with its options and state, the five
 * counters of compat.md §8, its documents in completion order (paged by `skip`, capped in bytes), its
 * error records (compat.md §7.4) and the active list (compat.md §7.5).
 */
import type { Queryable } from '../db/client.ts';
import { countOpenByStatus } from './crawl-urls.ts';

export type JobKind = 'crawl' | 'batch_scrape';
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

/** A job as the status endpoints read it. */
export interface JobView {
  id: string;
  teamId: string;
  kind: JobKind;
  status: JobStatus;
  /** Null for zero data retention jobs. */
  url: string | null;
  options: Record<string, any>;
  publicOptions: Record<string, unknown>;
  error?: { message?: string };
  creditsUsed: number;
  doneCount: number;
  createdAt: Date;
  completedAt?: Date;
  expiresAt?: Date;
}

/** Reads a crawl or batch job, or undefined. */
export async function getJob(db: Queryable, id: string): Promise<JobView | undefined> {
  const rows = await db.query<Record<string, any>>(
    `select j.id, j.team_id, j.kind, j.status, j.url, j.options as public_options, j.error, j.created_at, j.completed_at, j.expires_at,
            c.options, c.credits_used, c.done_count
     from jobs j join crawl_jobs c on c.id = j.id where j.id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    teamId: r.team_id,
    kind: r.kind,
    status: r.status,
    url: r.url,
    options: r.options,
    publicOptions: r.public_options,
    error: r.error ?? undefined,
    creditsUsed: Number(r.credits_used),
    doneCount: Number(r.done_count),
    createdAt: new Date(r.created_at),
    completedAt: r.completed_at ? new Date(r.completed_at) : undefined,
    expiresAt: r.expires_at ? new Date(r.expires_at) : undefined,
  };
}

/** The five counters of compat.md §8, plus failed and robots-blocked counts; zeros when terminal. */
export interface JobCounters {
  total: number;
  completed: number;
  active: number;
  queued: number;
  backlog: number;
  failed: number;
  robotsBlocked: number;
}

/**
 * The counters of a job: `completed` from the crawl row's done_count, the others by counting the
 * job's rows in those statuses (none of the open ones once the job is terminal).
 */
export async function jobCounters(db: Queryable, job: Pick<JobView, 'id' | 'status'>): Promise<JobCounters> {
  const terminal = job.status !== 'scraping';
  const c = await countOpenByStatus(db, job.id, terminal ? ['failed', 'robots'] : ['active', 'queued', 'backlog', 'failed', 'robots']);
  const completed = c.done ?? 0;
  const active = terminal ? 0 : (c.active ?? 0);
  const queued = terminal ? 0 : (c.queued ?? 0);
  const backlog = terminal ? 0 : (c.backlog ?? 0);
  return { total: completed + active + queued + backlog, completed, active, queued, backlog, failed: c.failed ?? 0, robotsBlocked: c.robots ?? 0 };
}

/**
 * Documents of a job in completion order from `skip`: up to `limit`, else up to `maxBytes` of
 * serialized documents (at least one).
 * @returns the serialized documents, each exactly as stored
 */
export async function documentsPage(db: Queryable, jobId: string, skip: number, limit: number | undefined, maxBytes: number): Promise<string[]> {
  const out: string[] = [];
  let bytes = 0;
  let after = skip;
  const chunk = 100;
  for (;;) {
    const want = limit === undefined ? chunk : Math.min(chunk, limit - out.length);
    if (want <= 0) break;
    const rows = await db.query<{ seq: number; body: string; size_bytes: number }>(
      `select c.seq, d.body, d.size_bytes from crawl_urls c join documents d on d.id = c.id
       where c.job_id = $1 and c.seq > $2 order by c.seq limit $3`,
      [jobId, after, want],
    );
    for (const r of rows) {
      if (limit === undefined && out.length > 0 && bytes + r.size_bytes > maxBytes) return out;
      out.push(r.body);
      bytes += r.size_bytes;
      after = r.seq;
    }
    if (rows.length < want) break;
  }
  return out;
}

/** Error records (compat.md §7.4): failed and skipped pages, and robots-blocked URLs. */
export interface ErrorRecord {
  id: string;
  timestamp: string;
  url: string;
  code?: string;
  error: string;
}

export async function jobErrors(db: Queryable, jobId: string): Promise<{ errors: ErrorRecord[]; robotsBlocked: string[] }> {
  const rows = await db.query<Record<string, any>>(
    `select id, url, status, error_code, error, updated_at from crawl_urls
     where job_id = $1 and status in ('failed', 'skipped', 'robots') order by updated_at, id`,
    [jobId],
  );
  const errors: ErrorRecord[] = [];
  const robotsBlocked: string[] = [];
  for (const r of rows) {
    if (r.status === 'robots') robotsBlocked.push(r.url);
    else {
      errors.push({
        id: r.id,
        timestamp: new Date(r.updated_at).toISOString(),
        url: r.url,
        ...(r.error_code ? { code: r.error_code } : {}),
        error: r.error ?? 'Unknown error',
      });
    }
  }
  return { errors, robotsBlocked };
}

/** Running crawls of a team (compat.md §7.5). */
export async function activeJobs(db: Queryable, teamId: string, kind: JobKind): Promise<Record<string, any>[]> {
  return db.query(
    `select id, team_id, url, created_at, options from jobs where team_id = $1 and kind = $2 and status = 'scraping' order by created_at`,
    [teamId, kind],
  );
}

