/**
 * Crawl and batch jobs as `POST /v2/support/ask` reads them (issue 21): the caller team's jobs of the
 * last 24 hours that failed, or finished with failed or robots-blocked pages, or with no page at all,
 * each with its request (the public options the job was created with: the body minus its webhook),
 * its error and its pages' errors. Never another team's job, never a zero data retention one.
 */
import type { Queryable } from '../db/client.ts';
import type { SupportFailure } from '../plugin.ts';
import { jobCounters, jobErrors } from '../store/crawl-reads.ts';

/** Page errors handed to plugins per job. */
const PAGE_ERRORS = 20;

/**
 * The team's unhealthy crawl and batch jobs, newest first: all (at most `limit`), or the one with
 * `id`, or those started at `url`.
 */
export async function failedJobs(db: Queryable, teamId: string, filter: { id?: string; url?: string } = {}, limit = 5): Promise<SupportFailure[]> {
  const rows = await db.query<Record<string, any>>(
    `select id, kind, status, url, options, error, created_at from jobs
      where team_id = $1 and kind in ('crawl', 'batch_scrape') and not zero_data_retention and status <> 'scraping'
        and created_at > now() - interval '24 hours'
        and ($2::text is null or id = $2) and ($3::text is null or url = $3 or url = rtrim($3, '/'))
      order by created_at desc limit ${Math.max(1, Math.min(20, limit * 4))}`,
    [teamId, filter.id ?? null, filter.url ?? null],
  );
  const out: SupportFailure[] = [];
  for (const r of rows) {
    const counters = await jobCounters(db, { id: r.id, status: r.status });
    const { errors, robotsBlocked } = await jobErrors(db, r.id);
    const healthy = r.status === 'completed' && errors.length === 0 && robotsBlocked.length === 0 && counters.completed > 0;
    if (healthy && !filter.id) continue;
    out.push({
      id: r.id,
      kind: r.kind,
      url: r.url ?? undefined,
      request: { ...(r.options ?? {}), ...(r.kind === 'crawl' && r.url ? { url: r.url } : {}) },
      error: r.error ? { code: r.error.code, message: r.error.message, status: r.error.status, headers: r.error.headers } : undefined,
      status: r.status,
      completed: counters.completed,
      pageErrors: errors.slice(0, PAGE_ERRORS).map((e) => ({ url: e.url, code: e.code, error: e.error })),
      robotsBlocked: robotsBlocked.slice(0, PAGE_ERRORS),
      at: new Date(r.created_at).getTime(),
    });
    if (out.length >= limit) break;
  }
  return out;
}
