/**
 * Storing the outcome of a crawl or batch page (worker side): a scraped page with its document,
 * completion order, credits, discovered links and `*.page` webhook event; a failed page (retried once
 * when the error is transient, else recorded and its `limit` slot freed); a page given back untouched.
 * Every path ends by letting the next pages into the window and finishing the crawl when nothing is
 * left. The redirect rules of compat.md §7.2 are applied here too.
 */
import type { Services } from '../services.ts';
import type { Queryable } from '../db/client.ts';
import type { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Document } from '../scrape/document.ts';
import { eventRow } from '../webhooks/outbox.ts';
import { freeSlot, lockJob, recordBlocked, type Advance, type Discovery, type LockedJob, type QueueItem } from '../store/crawl-urls.ts';
import { completePage, completePageGrouped, settleRow, stillOwned, type ClaimedUrl, type CompletedPage } from '../store/crawl-claims.ts';
import { advanceOrFinish, eventPrefix, finishIfDone } from '../store/crawls.ts';
import { crawlContext, rememberKeys, type CrawlContext } from './discovery.ts';
import type { CrawlerOptions } from './options.ts';
import { judgeUrl } from './scope.ts';
import { parseHttpUrl, urlKey } from './url-key.ts';

/** Tries per page (transient errors and workers that died while scraping it). */
export const MAX_PAGE_ATTEMPTS = 3;

export interface JobInfo {
  kind: 'crawl' | 'batch_scrape';
  teamId: string;
  options: Record<string, any>;
}

const jobInfo = new Map<string, Promise<JobInfo | undefined>>();

/** The job a page belongs to (memoized per process: options never change after creation). */
export function loadJob(services: Services, jobId: string): Promise<JobInfo | undefined> {
  let p = jobInfo.get(jobId);
  if (!p) {
    p = services.db
      .query<{ kind: JobInfo['kind']; team_id: string; options: Record<string, any> }>('select kind, team_id, options from crawl_jobs where id = $1', [jobId])
      .then((rows) => (rows[0] ? { kind: rows[0].kind, teamId: rows[0].team_id, options: rows[0].options } : undefined));
    p.catch(() => jobInfo.delete(jobId));
    if (jobInfo.size >= 1000) jobInfo.delete(jobInfo.keys().next().value!);
    jobInfo.set(jobId, p);
  }
  return p;
}

/** What happened to the scraped page before it is stored. */
export type Verdict =
  | { kind: 'keep'; aliasKey?: string; aliasUrl?: string }
  | { kind: 'skip'; code?: string; message: string };

/** Re-checks a crawl page's final URL after redirects (compat.md §7.2 Normalization, Internal). */
export function redirectVerdict(ctx: CrawlContext, claim: ClaimedUrl, finalUrl: string): Verdict {
  const final = parseHttpUrl(finalUrl);
  if (!final) return { kind: 'keep' };
  const key = urlKey(final, ctx.keys);
  if (key === claim.key) return { kind: 'keep' };
  const verdict = judgeUrl(final, ctx.rules);
  if (!verdict.ok && verdict.reason === 'external-homepage') {
    return { kind: 'skip', code: 'EXTERNAL_LINK', message: `${claim.url} redirected to the external homepage ${final.href}, which is not followed.` };
  }
  if (!verdict.ok && verdict.reason !== 'external') {
    return { kind: 'skip', message: `${claim.url} redirected to ${final.href}, which the crawl options exclude (${verdict.reason}).` };
  }
  if (!verdict.ok) return { kind: 'skip', message: `${claim.url} redirected to ${final.href}, outside the crawled site.` };
  return { kind: 'keep', aliasKey: key, aliasUrl: final.href };
}

export interface Outcome {
  items: QueueItem[];
  finished?: string;
  /** The document was stored as a page of the job (and charged in the same statement). */
  stored?: boolean;
  /** A page the completion claimed for this worker to run next. */
  next?: ClaimedUrl;
}

export interface ScrapedPage {
  doc: Document;
  /** The serialized document. */
  body: string;
  finalUrl: string;
  verdict: Verdict;
  /** Everything the page's links gave. */
  discovery: Discovery;
  /** The same without links this process knows the crawl already has. */
  known: Discovery;
  credits: number;
  zdr: boolean;
  storeInCache: boolean;
}

/**
 * Stores a scraped page. The common case is one statement (`completePageGrouped`: with the same
 * crawl's pages completed meanwhile in this process), so the crawl's lock is held only while the
 * database works; redirects take a transaction that first claims the final URL
 * (a redirect onto a URL the crawl already has is dropped silently) or skip the page with an error
 * record. Blocked and skipped links are recorded first: they need no lock and must be listed by the
 * time the crawl can be seen finished.
 * @param chainLeaseMs > 0: the completion also claims a next page for this worker, leased this long
 */
export async function storePage(services: Services, job: JobInfo, claim: ClaimedUrl, p: ScrapedPage, chainLeaseMs: number): Promise<Outcome | undefined> {
  const { doc, body, finalUrl, verdict, discovery, known, credits, zdr } = p;
  const page: CompletedPage = {
    teamId: job.teamId,
    url: finalUrl,
    statusCode: Number(doc.metadata.statusCode) || 0,
    body: zdr ? undefined : body,
    credits,
    apiKeyId: job.options.apiKeyId,
    discovered: known.accept,
    hook: eventRow(job.options.webhook, { type: `${eventPrefix(job.kind)}.page`, jobId: claim.jobId, teamId: job.teamId, success: true, documents: [body] }),
  };
  if (known.robots.length > 0 || known.skipped.length > 0) await recordBlocked(services.db, claim.jobId, known);
  let outcome: Outcome | undefined;
  if (verdict.kind === 'keep' && !verdict.aliasKey) {
    const done = await completePageGrouped(services.db, claim, page, chainLeaseMs);
    outcome = done.status === 'done' ? { ...(await finishWhenIdle(services, claim.jobId, done.advance, true)), next: done.next } : undefined;
  } else {
    outcome = await services.db.transaction(async (tx) => {
      const locked = await lockJob(tx, claim.jobId);
      if (!locked || locked.state !== 'running' || !(await stillOwned(tx, claim))) return undefined;
      if (verdict.kind === 'keep') {
        const claimed = await tx.query(
          `insert into crawl_urls (job_id, url_key, id, url, source_url, depth, status) values ($1, $2, $3, $4, $4, $5, 'alias')
           on conflict do nothing returning 1`,
          [claim.jobId, verdict.aliasKey, newId(), verdict.aliasUrl, claim.depth],
        );
        if (claimed.length > 0) {
          const done = await completePage(tx, claim, page);
          return done.status === 'done' ? { ...(await finishIn(tx, locked, done.advance)), stored: true } : undefined;
        }
      }
      // Skipped (EXTERNAL_LINK, out of scope), or a redirect onto a URL this crawl already has
      // (that row is the page; this one is dropped silently).
      if (verdict.kind === 'skip') await settleRow(tx, claim.id, 'skipped', { code: verdict.code, message: verdict.message });
      else await settleRow(tx, claim.id, 'duplicate');
      await freeSlot(tx, locked);
      return advanceOrFinish(tx, locked);
    });
  }
  if (outcome?.stored) {
    rememberKeys(claim.jobId, discovery, claim.depth + 1);
    if (!zdr && p.storeInCache) await services.searchIndex.add(doc, job.teamId);
  }
  return outcome;
}

/** Finishes the crawl inside a transaction when the advance found nothing pending. */
async function finishIn(tx: Queryable, locked: LockedJob, a: Advance): Promise<Outcome> {
  return { items: a.items, finished: a.pending === 0 ? await finishIfDone(tx, locked, 0) : undefined };
}

/** After a one-statement completion: finishes the crawl (in its own transaction) when nothing is pending. */
async function finishWhenIdle(services: Services, jobId: string, a: Advance, stored: boolean): Promise<Outcome> {
  if (a.pending > 0) return { items: a.items, stored };
  const finished = await services.db.transaction(async (tx) => {
    const locked = await lockJob(tx, jobId);
    return locked ? finishIfDone(tx, locked) : undefined;
  });
  return { items: a.items, finished, stored };
}

/** Gives a claimed page back to the backlog without counting the attempt. */
export async function releasePage(services: Services, claim: ClaimedUrl): Promise<Outcome | undefined> {
  return services.db.transaction(async (tx) => {
    const locked = await lockJob(tx, claim.jobId);
    if (!locked || locked.state !== 'running' || !(await stillOwned(tx, claim))) return undefined;
    await tx.query(`update crawl_urls set status = 'backlog', attempts = attempts - 1, lease_until = null, updated_at = now() where id = $1`, [claim.id]);
    return advanceOrFinish(tx, locked);
  });
}

export async function failPage(services: Services, job: JobInfo, claim: ClaimedUrl, e: TrawlError): Promise<Outcome | undefined> {
  const retry = e.retryable && e.code !== 'SCRAPE_TIMEOUT' && e.code !== 'SCRAPE_JOB_CANCELLED' && claim.attempt < MAX_PAGE_ATTEMPTS - 1;
  return services.db.transaction(async (tx) => {
    const locked = await lockJob(tx, claim.jobId);
    if (!locked || locked.state !== 'running') return undefined;
    if (!(await stillOwned(tx, claim))) return undefined;
    if (retry) {
      await tx.query(`update crawl_urls set status = 'backlog', lease_until = null, updated_at = now() where id = $1`, [claim.id]);
    } else {
      await settleRow(tx, claim.id, 'failed', { code: e.code, message: e.message });
      await freeSlot(tx, locked);
      await tx.query('update crawl_jobs set finished_count = finished_count + 1, updated_at = now() where id = $1', [claim.jobId]);
      locked.finishedCount += 1;
      const crawler = job.options.crawler as CrawlerOptions | undefined;
      if (job.kind === 'crawl' && crawler && claim.key === urlKey(new URL(crawler.url), crawlContext(claim.jobId, crawler).keys)) {
        await tx.query('update crawl_jobs set start_error = $2 where id = $1', [claim.jobId, { code: e.code, message: e.message }]);
      }
    }
    return advanceOrFinish(tx, locked);
  });
}
