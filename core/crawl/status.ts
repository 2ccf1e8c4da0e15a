/**
 * The status document of a crawl or batch scrape (interface.md "Crawl status and error records";
 * compat.md §8): status, the five counters, credits, expiry, a page of documents in completion order
 * (at most 10 MB unless `limit` is given) and the absolute `next` URL. Documents are spliced in as
 * stored, so polling, paging, WebSocket and webhooks carry the same bytes. An empty page of a running
 * job is held up to ~1 s for a new document, so clients that follow `next` without pause do not spin.
 */
import type { Queryable } from '../db/client.ts';
import { documentsPage, getJob, jobCounters, type JobCounters, type JobView } from '../store/crawls.ts';
import { RETENTION_MS } from '../store/documents.ts';
import type { CrawlerOptions } from './options.ts';

/** compat.md §8: a status response holds at most this many bytes of documents. */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;
/** How long an empty page of a running job waits for a document, ms. */
export const EMPTY_PAGE_HOLD_MS = 1_000;

export interface StatusRequest {
  skip: number;
  limit?: number;
  /** Absolute URL of the status endpoint of this job (`<base>/v2/crawl/<id>`). */
  selfUrl: string;
  holdMs?: number;
  /** Rewrites each stored document before it is sent (a format-restricted key's view; core/auth/document-filter.ts). */
  document?: (body: string) => string;
}

/** Warnings of compat.md §7.2: robots-blocked URLs, and few results from a deep start URL. */
export function statusWarning(job: JobView, counters: JobCounters): string | undefined {
  const parts: string[] = [];
  if (counters.robotsBlocked > 0) {
    parts.push(`${counters.robotsBlocked} URL(s) were blocked by robots.txt and not scraped; see the errors endpoint for the list.`);
  }
  const crawler = job.options.crawler as CrawlerOptions | undefined;
  if (job.kind === 'crawl' && crawler && job.status !== 'scraping' && counters.completed <= 1 && !crawler.crawlEntireDomain) {
    const start = new URL(crawler.url);
    if (start.pathname !== '/' && start.pathname !== '') {
      parts.push(
        `Only ${counters.completed} result(s) found. The crawl follows only pages under ${start.pathname}; ` +
          `to crawl the whole site, start from the base domain (${start.hostname}) or set crawlEntireDomain to true.`,
      );
    }
  }
  return parts.length ? parts.join(' ') : undefined;
}

function expiresAt(job: JobView): string {
  return (job.expiresAt ?? new Date(Date.now() + RETENTION_MS)).toISOString();
}

/** Status fields without `data`/`next` (also the WebSocket catchup snapshot). */
export function statusHead(job: JobView, counters: JobCounters): Record<string, unknown> {
  const head: Record<string, unknown> = {
    success: true,
    status: job.status,
    completed: counters.completed,
    total: counters.total,
    active: counters.active,
    queued: counters.queued,
    backlog: counters.backlog,
    creditsUsed: job.creditsUsed,
    expiresAt: expiresAt(job),
    createdAt: job.createdAt.toISOString(),
  };
  if (job.completedAt) {
    head.completedAt = job.completedAt.toISOString();
    head.duration = Math.round((job.completedAt.getTime() - job.createdAt.getTime()) / 10) / 100;
  }
  return head;
}

/** Joins a JSON object (without its closing brace) with raw JSON members. */
export function withRawMembers(head: Record<string, unknown>, members: [string, string][]): string {
  const base = JSON.stringify(head);
  const extra = members.map(([k, v]) => `,${JSON.stringify(k)}:${v}`).join('');
  return `${base.slice(0, -1)}${extra}}`;
}

/**
 * Builds the status response body.
 * @param job   the job as read before the call (re-read while holding an empty page)
 * @returns the JSON text
 */
export async function statusBody(db: Queryable, job: JobView, req: StatusRequest): Promise<string> {
  let current = job;
  let docs = await documentsPage(db, current.id, req.skip, req.limit, MAX_PAGE_BYTES);
  const holdUntil = Date.now() + (req.holdMs ?? EMPTY_PAGE_HOLD_MS);
  while (docs.length === 0 && current.status === 'scraping' && Date.now() < holdUntil) {
    await Bun.sleep(100);
    current = (await getJob(db, job.id)) ?? current;
    docs = await documentsPage(db, current.id, req.skip, req.limit, MAX_PAGE_BYTES);
  }
  const counters = await jobCounters(db, current);
  const head = statusHead(current, counters);
  const after = req.skip + docs.length;
  const more = current.status === 'scraping' || (docs.length > 0 && after < current.doneCount);
  if (more) {
    const next = new URL(req.selfUrl);
    next.search = '';
    next.searchParams.set('skip', String(after));
    if (req.limit !== undefined) next.searchParams.set('limit', String(req.limit));
    head.next = next.href;
  }
  const warning = statusWarning(current, counters);
  const shown = req.document ? docs.map(req.document) : docs;
  const tail: [string, string][] = [['data', `[${shown.join(',')}]`]];
  if (warning) tail.push(['warning', JSON.stringify(warning)]);
  if (current.status === 'failed') tail.push(['error', JSON.stringify(current.error?.message ?? 'The crawl failed')]);
  return withRawMembers(head, tail);
}
