/**
 * One page of a crawl or batch scrape, worker side: claim the frontier row, scrape it with the job's
 * scrape options, and in one transaction store the document, its completion order, the credits, the
 * links it discovered and the `*.page` webhook event. A crawl page whose redirect lands on a URL
 * already seen is dropped silently; one that lands outside the crawl's scope is skipped with an
 * error record (EXTERNAL_LINK for an external homepage). Failures free the page's `limit` slot.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { runScrape, type Document } from '../pipeline/scrape.ts';
import { indexScrapedDocument } from '../search/index-document.ts';
import type { ScrapeOptions } from '../http/models/scrape.ts';
import { startScrapeAccounting, type ScrapeAccounting } from '../credits/scrape-accounting.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { kickJob } from '../webhooks/deliver.ts';
import {
  claimUrl, emptyDiscovery, freeSlot, insertDiscovered, lockJob, markDone, renewLease, settleRow, stillOwned,
  type ClaimedUrl, type Discovery, type QueueItem,
} from '../store/crawl-urls.ts';
import { advanceOrFinish, eventPrefix } from '../store/crawls.ts';
import { classify, crawlContext, rememberKeys, unknownOnly, type CrawlContext } from './discovery.ts';
import { enqueueItems, type PageMessage } from './enqueue.ts';
import { extractLinks } from './links.ts';
import type { CrawlerOptions } from './options.ts';
import { judgeUrl } from './scope.ts';
import { parseHttpUrl, urlKey } from './url-key.ts';
import { webhookDeps } from './webhook-deps.ts';

/** A claim lasts this long without renewal; a killed worker's page is retried after it, ms. */
export const LEASE_MS = 15_000;
/** Tries per page (transient errors and workers that died while scraping it). */
export const MAX_PAGE_ATTEMPTS = 3;

interface JobInfo {
  kind: 'crawl' | 'batch_scrape';
  teamId: string;
  options: Record<string, any>;
}

const jobInfo = new Map<string, Promise<JobInfo | undefined>>();

function loadJob(services: Services, jobId: string): Promise<JobInfo | undefined> {
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
type Verdict =
  | { kind: 'keep'; aliasKey?: string; aliasUrl?: string }
  | { kind: 'skip'; code?: string; message: string };

/** Re-checks a crawl page's final URL after redirects (compat.md §7.2 Normalization, Internal). */
function redirectVerdict(ctx: CrawlContext, claim: ClaimedUrl, finalUrl: string): Verdict {
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

interface Outcome {
  items: QueueItem[];
  finished?: string;
  /** The document was stored as a page of the job (charge it). */
  stored?: boolean;
}

/** Pages one queue message may run back to back before handing the rest to the queue (fairness). */
export const MAX_CHAIN = 25;

/**
 * Runs one page message, then keeps going with a page its completion let into the window (a chain
 * of at most MAX_CHAIN pages): in steady state a finished page frees one slot, and the worker that
 * freed it takes the next page itself instead of a round trip through the queue. Other freed pages
 * go to the queue. Never throws for page-level failures (they are recorded on the row).
 */
export async function runPage(services: Services, msg: PageMessage, signal: AbortSignal): Promise<void> {
  let next: PageMessage | undefined = msg;
  for (let chained = 0; next; chained++) {
    const items = await runOne(services, next, signal);
    next = undefined;
    const i = chained + 1 < MAX_CHAIN && !signal.aborted ? items.findIndex((it) => it.delayMs === 0) : -1;
    if (i >= 0) {
      const [item] = items.splice(i, 1);
      next = { jobId: item.jobId, rowId: item.rowId, enqueue: item.enqueue };
    }
    await enqueueItems(services, items);
  }
}

/** Runs one page; returns the rows its completion moved into the window. */
async function runOne(services: Services, msg: PageMessage, signal: AbortSignal): Promise<QueueItem[]> {
  const claim = await claimUrl(services.db, msg.rowId, msg.enqueue, LEASE_MS);
  if (!claim) return []; // stale or duplicate message, or the crawl ended
  const job = await loadJob(services, claim.jobId);
  if (!job) return [];
  const log = services.log.child({ jobId: claim.jobId, scrapeId: claim.id });
  const lost = new AbortController();
  const heartbeat = setInterval(() => {
    renewLease(services.db, claim, LEASE_MS).then(
      (ok) => ok || lost.abort(),
      (err) => log.warn({ err }, 'lease renewal failed'),
    );
  }, LEASE_MS / 3);
  let outcome: Outcome | undefined;
  let account: ScrapeAccounting | undefined;
  try {
    const options = job.options.scrape as ScrapeOptions;
    try {
      account = await startScrapeAccounting(
        services,
        { scrapeId: claim.id, url: claim.url, sourceURL: claim.sourceUrl, options, teamId: job.teamId, keyId: job.options.apiKeyId, jobId: claim.jobId },
        AbortSignal.any([signal, lost.signal]),
      );
    } catch (error) {
      if (error instanceof TrawlError) throw error;
      // The concurrency store is unreachable (Redis restarting): give the page back untouched.
      log.warn({ err: error }, 'no concurrency slot; the page goes back to the backlog');
      outcome = await releasePage(services, claim);
      return outcome?.items ?? [];
    }
    outcome = await scrapeAndStore(services, job, claim, account, AbortSignal.any([signal, lost.signal]));
    if (outcome?.stored) await account.charge();
  } catch (error) {
    const e = TrawlError.wrap(error);
    if (lost.signal.aborted) return []; // another worker owns the page now
    log.debug({ code: e.code, err: e.message }, 'crawl page failed');
    await account?.failed(e);
    outcome = await failPage(services, job, claim, e);
  } finally {
    clearInterval(heartbeat);
    await account?.release();
  }
  if (!outcome) return [];
  if (job.options.webhook) kickJob(webhookDeps(services), claim.jobId);
  if (outcome.finished) log.info({ status: outcome.finished }, 'crawl finished');
  return outcome.items;
}

async function scrapeAndStore(services: Services, job: JobInfo, claim: ClaimedUrl, account: ScrapeAccounting, signal: AbortSignal): Promise<Outcome | undefined> {
  const scrape = job.options.scrape as ScrapeOptions;
  const crawler = job.options.crawler as CrawlerOptions | undefined;
  const ctx = job.kind === 'crawl' && crawler ? crawlContext(claim.jobId, crawler) : undefined;
  const follow = !!ctx && !claim.external && crawler!.sitemap !== 'only' &&
    (crawler!.maxDiscoveryDepth === undefined || claim.depth < crawler!.maxDiscoveryDepth);
  const addRaw = follow && !scrape.formats.some((f) => f.type === 'rawHtml');
  const options = addRaw ? { ...scrape, formats: [...scrape.formats, { type: 'rawHtml' }] } : scrape;
  const doc: Document = await runScrape(
    { ...account.request, options },
    { config: services.config, log: account.log, registry: services.registry, blobs: services.blobs },
    signal,
  );
  const finalUrl = String(doc.metadata.url ?? claim.url);
  const raw = typeof doc.rawHtml === 'string' ? doc.rawHtml : undefined;
  if (addRaw) delete doc.rawHtml;
  const verdict: Verdict = ctx ? redirectVerdict(ctx, claim, finalUrl) : { kind: 'keep' };
  let discovery: Discovery = emptyDiscovery();
  if (follow && raw !== undefined && verdict.kind === 'keep') {
    discovery = await classify(services, ctx!, extractLinks(raw, finalUrl).links, claim.depth + 1);
  }
  account.finish(doc);
  const credits = Number(doc.metadata.creditsUsed) || 0;
  const body = JSON.stringify(doc);
  const zdr = Boolean(job.options.zeroDataRetention);
  const known = discovery.accept.length > 0 ? unknownOnly(claim.jobId, discovery) : discovery;

  const outcome = await services.db.transaction(async (tx) => {
    const locked = await lockJob(tx, claim.jobId);
    if (!locked || locked.state !== 'running') return undefined;
    const end = async (): Promise<Outcome> => advanceOrFinish(tx, locked);
    if (verdict.kind === 'skip' || verdict.aliasKey) {
      if (!(await stillOwned(tx, claim))) return undefined;
      if (verdict.kind === 'skip') {
        await settleRow(tx, claim.id, 'skipped', { code: verdict.code, message: verdict.message });
        await freeSlot(tx, locked);
        return end();
      }
      const claimed = await tx.query(
        `insert into crawl_urls (job_id, url_key, id, url, source_url, depth, status) values ($1, $2, $3, $4, $4, $5, 'alias')
         on conflict do nothing returning 1`,
        [claim.jobId, verdict.aliasKey, newId(), verdict.aliasUrl, claim.depth],
      );
      if (claimed.length === 0) {
        // The redirect landed on a URL this crawl already has: that row is the page (dropped silently).
        await settleRow(tx, claim.id, 'duplicate');
        await freeSlot(tx, locked);
        return end();
      }
    }
    const stored = await markDone(tx, locked, claim, {
      teamId: job.teamId, url: finalUrl, statusCode: Number(doc.metadata.statusCode) || 0, body, credits, store: !zdr,
    });
    if (!stored) return undefined;
    await insertDiscovered(tx, locked, known);
    await recordEvent(tx, job.options.webhook, { type: `${eventPrefix(job.kind)}.page`, jobId: claim.jobId, teamId: job.teamId, success: true, documents: [body] });
    return { ...(await end()), stored: true };
  });
  if (outcome?.stored) {
    rememberKeys(claim.jobId, discovery, claim.depth + 1);
    if (!zdr && scrape.storeInCache) await indexScrapedDocument(services.db, doc, services.log);
  }
  return outcome;
}

/** Gives a claimed page back to the backlog without counting the attempt. */
async function releasePage(services: Services, claim: ClaimedUrl): Promise<Outcome | undefined> {
  return services.db.transaction(async (tx) => {
    const locked = await lockJob(tx, claim.jobId);
    if (!locked || locked.state !== 'running' || !(await stillOwned(tx, claim))) return undefined;
    await tx.query(`update crawl_urls set status = 'backlog', attempts = attempts - 1, lease_until = null, updated_at = now() where id = $1`, [claim.id]);
    return advanceOrFinish(tx, locked);
  });
}

async function failPage(services: Services, job: JobInfo, claim: ClaimedUrl, e: TrawlError): Promise<Outcome | undefined> {
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
