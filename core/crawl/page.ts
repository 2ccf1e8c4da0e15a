/**
 * One page of a crawl or batch scrape, worker side: claim the frontier row, hold its lease while
 * scraping it with the job's scrape options (plus the links format when its links are to be
 * followed), judge its redirect and its links, then store the outcome (page-store.ts). A worker runs
 * the pages its completions let into the window back to back (a chain) instead of sending each
 * through the queue.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { runScrape, type Document } from '../pipeline/scrape.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { startScrapeAccounting, type ScrapeAccounting } from '../credits/scrape-accounting.ts';
import { modelFor } from '../llm/service.ts';
import { pageVersionStore } from '../page-versions/index.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { emptyDiscovery, type Discovery, type QueueItem } from '../store/crawl-urls.ts';
import { claimUrl, renewLease, trackScrape, type ClaimedUrl } from '../store/crawl-claims.ts';
import { classify, crawlContext, unknownOnly } from './discovery.ts';
import { enqueueItems, type PageMessage } from './enqueue.ts';
import type { CrawlerOptions } from './options.ts';
import { failPage, loadJob, redirectVerdict, releasePage, storePage, type JobInfo, type Outcome, type Verdict } from './page-store.ts';
import { webhookDeps } from './webhook-deps.ts';
import { pageLinksFormat } from '../scrape/formats.ts';
import { countCrawlPage } from '../metrics/index.ts';

/** A claim lasts this long without renewal; a killed worker's page is retried after it, ms. */
export const LEASE_MS = 15_000;
/** Pages one queue message may run back to back before handing the rest to the queue (fairness). */
export const MAX_CHAIN = 25;

/**
 * Runs one page message, then keeps going with a page its completion let into the window (a chain
 * of at most MAX_CHAIN pages): in steady state a finished page frees one slot, and the completion
 * claims the next page for the same worker in the same statement instead of a round trip through the
 * queue. Other freed pages go to the queue. Never throws for page-level failures (they are recorded
 * on the row).
 */
export async function runPage(services: Services, msg: PageMessage, signal: AbortSignal): Promise<void> {
  let claim = await claimUrl(services.db, msg.rowId, msg.enqueue, LEASE_MS);
  for (let chained = 1; claim; chained++) {
    const { items, next } = await runClaimed(services, claim, signal, chained < MAX_CHAIN);
    claim = next;
    if (!claim && chained < MAX_CHAIN && !signal.aborted) {
      // Failures free a slot without claiming: take a freed page from the list instead.
      const i = items.findIndex((it) => it.delayMs === 0);
      if (i >= 0) {
        const [item] = items.splice(i, 1);
        claim = await claimUrl(services.db, item.rowId, item.enqueue, LEASE_MS);
      }
    }
    await enqueueItems(services, items);
  }
}

/** Runs one claimed page; returns the rows its completion moved into the window and a claimed next page. */
async function runClaimed(services: Services, claim: ClaimedUrl, signal: AbortSignal, chain: boolean): Promise<{ items: QueueItem[]; next?: ClaimedUrl }> {
  const job = await loadJob(services, claim.jobId);
  if (!job) return { items: [] };
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
  // Lets the completions of the crawl's other pages wait briefly for this one (group commit).
  const scraped = trackScrape(services.db, claim.jobId);
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
      return { items: outcome?.items ?? [] };
    }
    // A stored page is charged by the statement that stores it (completePage), not by account.charge().
    outcome = await scrapeAndStore(services, job, claim, account, AbortSignal.any([signal, lost.signal]), chain && !signal.aborted ? LEASE_MS : 0, scraped);
    countCrawlPage('completed');
  } catch (error) {
    const e = TrawlError.wrap(error);
    if (lost.signal.aborted) return { items: [] }; // another worker owns the page now
    if (signal.aborted) {
      // Shutdown (or a cancelled crawl): the page is not at fault; give it back for later.
      outcome = await releasePage(services, claim).catch(() => undefined);
    } else {
      // Zero data retention: error texts name URLs, so only the code is logged.
      log.debug({ code: e.code, ...(job.options.zeroDataRetention ? {} : { err: e.message }) }, 'crawl page failed');
      await account?.failed(e);
      outcome = await failPage(services, job, claim, e);
      countCrawlPage('failed');
    }
  } finally {
    scraped();
    clearInterval(heartbeat);
    await account?.release();
  }
  if (!outcome) return { items: [] };
  if (job.options.webhook) kickJob(webhookDeps(services), claim.jobId);
  if (outcome.finished) {
    log.info({ status: outcome.finished }, 'crawl finished');
    // Its pages' search index rows need not wait for the process to look quiet.
    services.searchIndex.idle();
  }
  return { items: outcome.items, next: outcome.next };
}

async function scrapeAndStore(
  services: Services,
  job: JobInfo,
  claim: ClaimedUrl,
  account: ScrapeAccounting,
  signal: AbortSignal,
  chainLeaseMs: number,
  scraped: () => void,
): Promise<Outcome | undefined> {
  const scrape = job.options.scrape as ScrapeOptions;
  const crawler = job.options.crawler as CrawlerOptions | undefined;
  const ctx = job.kind === 'crawl' && crawler ? crawlContext(claim.jobId, crawler) : undefined;
  const follow = !!ctx && !claim.external && crawler!.sitemap !== 'only' &&
    (crawler!.maxDiscoveryDepth === undefined || claim.depth < crawler!.maxDiscoveryDepth);
  // The page's links come from the format declaring `role: 'page-links'` (read while the page is
  // parsed, no second pass).
  const linksFormat = pageLinksFormat(services.formats)?.name;
  const addLinks = follow && !!linksFormat && !scrape.formats.some((f) => f.type === linksFormat);
  const options = addLinks ? { ...scrape, formats: [...scrape.formats, { type: linksFormat! }] } : scrape;
  const doc: Document = await runScrape(
    { ...account.request, options },
    {
      config: services.config, log: account.log, registry: services.registry, blobs: services.blobs, content: services.content,
      model: modelFor(services, { teamId: job.teamId, apiKeyId: job.options.apiKeyId, jobId: claim.jobId }),
      pageVersions: pageVersionStore(services.db, job.teamId),
    },
    signal,
  );
  scraped();
  const finalUrl = String(doc.metadata.url ?? claim.url);
  const found = linksFormat ? doc[linksFormat] : undefined;
  const links = Array.isArray(found) ? (found as string[]) : [];
  if (addLinks) delete doc[linksFormat!];
  const verdict: Verdict = ctx ? redirectVerdict(ctx, claim, finalUrl) : { kind: 'keep' };
  let discovery: Discovery = emptyDiscovery();
  if (follow && verdict.kind === 'keep') {
    discovery = await classify(services, ctx!, links, claim.depth + 1);
  }
  account.finish(doc);
  const credits = Number(doc.metadata.creditsUsed) || 0;
  const body = JSON.stringify(doc);
  const zdr = Boolean(job.options.zeroDataRetention);
  const known = discovery.accept.length > 0 ? unknownOnly(claim.jobId, discovery) : discovery;

  return storePage(services, job, claim, { doc, body, finalUrl, verdict, discovery, known, credits, zdr, storeInCache: scrape.storeInCache }, chainLeaseMs);
}

