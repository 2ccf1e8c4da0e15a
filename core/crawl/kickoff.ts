/**
 * The start of a crawl's discovery (interface.md "Crawl request body"; compat.md §7.2): robots.txt
 * of the start origin, the start URL (checked against the path patterns and robots.txt), and the
 * sitemaps unless `sitemap: "skip"`. Start and sitemap pages go into the frontier at depth 0 in one
 * transaction, then the first window of pages is queued. Idempotent and leased: the reconciler runs it
 * again when the process that started it died.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { emptyDiscovery, insertDiscovered, lockJob, promote } from '../store/crawl-urls.ts';
import { finishIfDone } from '../store/crawls.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { classify, crawlContext, robotsFor } from './discovery.ts';
import { enqueueItems } from './enqueue.ts';
import type { CrawlerOptions } from './options.ts';
import { patternVerdict } from './scope.ts';
import { readSitemaps, sitemapCandidates } from './sitemap.ts';
import { urlKey } from './url-key.ts';
import { webhookDeps } from './webhook-deps.ts';

/**
 * How long a kickoff's claim lasts without renewal, ms. The running process renews it every third of
 * this, so a kickoff whose process died is taken over by the reconciler within about this long (a
 * crawl interrupted at its start resumes in seconds, not minutes).
 */
const KICKOFF_LEASE_MS = 15_000;
/** Sitemap URLs read at most, whatever the limit. */
const MAX_SITEMAP_URLS = 100_000;

/** Runs the kickoff of crawl `jobId` if no other process is running it. */
export async function runKickoff(services: Services, jobId: string, signal?: AbortSignal): Promise<void> {
  const claimed = await services.db.query<{ options: Record<string, any> }>(
    `update crawl_jobs set kickoff = 'running', kickoff_lease = now() + ($2::int * interval '1 millisecond'), updated_at = now()
     where id = $1 and state = 'running' and (kickoff = 'pending' or (kickoff = 'running' and kickoff_lease < now()))
     returning options`,
    [jobId, KICKOFF_LEASE_MS],
  );
  if (claimed.length === 0) return;
  const renew = setInterval(() => {
    services.db
      .query(`update crawl_jobs set kickoff_lease = now() + ($2::int * interval '1 millisecond') where id = $1 and kickoff = 'running'`, [jobId, KICKOFF_LEASE_MS])
      .catch((err) => services.log.warn({ err, jobId }, 'crawl kickoff lease renewal failed'));
  }, KICKOFF_LEASE_MS / 3);
  try {
    await discover(services, jobId, claimed[0].options, signal);
  } finally {
    clearInterval(renew);
  }
}

/** The kickoff's work once claimed: robots, start URL, sitemaps, the first window queued. */
async function discover(services: Services, jobId: string, stored: Record<string, any>, signal?: AbortSignal): Promise<void> {
  const options = stored.crawler as CrawlerOptions;
  const log = services.log.child({ jobId, component: 'crawl' });
  const deps = { ...services, log };
  const ctx = crawlContext(jobId, options);
  const start = new URL(options.url);

  const discovery = emptyDiscovery();
  const robots = await robotsFor(deps, jobId, start.origin, options.robotsUserAgent);
  if (!patternVerdict(start, ctx.rules)) {
    const key = urlKey(start, ctx.keys);
    if (!options.ignoreRobotsTxt && !robots.isAllowed(start.href)) discovery.robots.push({ key, url: start.href });
    else discovery.accept.push({ key, url: start.href, sourceUrl: options.sourceURL, depth: 0, external: false });
  }
  if (options.sitemap !== 'skip') {
    const sitemaps = await readSitemaps(deps, sitemapCandidates(start, robots.sitemaps()), Math.min(MAX_SITEMAP_URLS, options.limit * 4 + 100), signal);
    log.debug({ sitemaps: sitemaps.sitemaps.length, failed: sitemaps.failed.length, urls: sitemaps.urls.length }, 'sitemaps read');
    const found = await classify(deps, ctx, sitemaps.urls, 0);
    discovery.accept.push(...found.accept);
    discovery.robots.push(...found.robots);
    discovery.skipped.push(...found.skipped);
  }

  const result = await services.db.transaction(async (tx) => {
    const job = await lockJob(tx, jobId);
    if (!job || job.state !== 'running') return undefined;
    await insertDiscovered(tx, job, discovery);
    await tx.query(`update crawl_jobs set kickoff = 'done', kickoff_lease = null, updated_at = now() where id = $1`, [jobId]);
    job.kickoff = 'done';
    const items = await promote(tx, job);
    const finished = await finishIfDone(tx, job);
    return { items, finished, webhook: Boolean(job.options.webhook) };
  });
  if (!result) return;
  await enqueueItems(services, result.items);
  if (result.webhook) kickJob(webhookDeps(services), jobId);
  log.debug({ queued: result.items.length, finished: result.finished }, 'crawl kickoff done');
}

/** Marks a kickoff that cannot run (bad stored options) as failed start, so the crawl ends. */
export async function failKickoff(services: Services, jobId: string, error: unknown): Promise<void> {
  const e = TrawlError.wrap(error);
  await services.db.transaction(async (tx) => {
    const job = await lockJob(tx, jobId);
    if (!job || job.state !== 'running') return;
    await tx.query(`update crawl_jobs set kickoff = 'done', start_error = $2 where id = $1`, [jobId, { code: e.code, message: e.message }]);
    job.kickoff = 'done';
    await finishIfDone(tx, job);
  });
}
