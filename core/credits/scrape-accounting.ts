/**
 * Accounting around one scrape job on the worker side, so that every path that scrapes (single
 * scrape, crawl page, batch page, search result) is covered the same way (compat.md §18):
 *
 * 1. waits for a team concurrency slot (core/limits): a single scrape waits at most its timeout less
 *    1 s and then fails with 408 CONCURRENCY_QUEUE_TIMEOUT; its remaining timeout is what is left;
 *    crawl and batch pages wait up to 10 minutes;
 * 2. stamps `metadata.creditsUsed` (core/credits/costs.ts) and, when it had to wait,
 *    `metadata.concurrencyLimited` / `concurrencyQueueDurationMs` before the document is serialized;
 * 3. charges the team once per scrape id after the document was produced and stored; a lockdown
 *    cache miss costs 1 credit; any other failure costs nothing (no charge for failed work);
 * 4. for zero data retention, gives a logger that redacts URLs.
 */
import type { Services } from '../services.ts';
import { scrapeLogger, type Logger } from '../log.ts';
import type { ScrapeRequest, Document } from '../scrape/document.ts';
import { TrawlError } from '../errors.ts';
import { teamSettings } from '../auth/teams.ts';
import { limitsFor, type Slot } from '../limits/index.ts';
import { chargeCredits } from './ledger.ts';
import { COSTS, scrapeCredits } from './costs.ts';
import { recordScrapeActivity } from '../audit/activity.ts';
import { loadThreatLists } from '../threat/lists.ts';
import { writeBundle } from '../store/write-bundle.ts';
import type { Queryable } from '../db/client.ts';

/** What accounting needs of a queued scrape (a subset of core/jobs/scrape.ts ScrapeJobData). */
export interface AccountedScrape extends ScrapeRequest {
  teamId: string;
  /** API key that asked for it (per-key usage history); undefined for keyless and auth-off calls. */
  keyId?: string;
  /** Crawl or batch id when the scrape is a page of one. */
  jobId?: string;
  /**
   * The request's own `timeout` when the job was given a longer budget to finish after the API
   * answered 408 processing_continues (core/jobs/scrape-resume.ts), ms. Waiting for a concurrency
   * slot is bounded by it: a scrape that never started answers CONCURRENCY_QUEUE_TIMEOUT (compat.md
   * §21) rather than going on in the background.
   */
  requestTimeoutMs?: number;
}

/** Least time a single scrape keeps for itself after waiting for a slot, ms. */
const MIN_RUN_MS = 1_000;
/** Longest wait of a crawl or batch page for a slot, ms. */
const PAGE_SLOT_WAIT_MS = 10 * 60_000;
/** A slot's lease outlives the scrape's timeout by this much (Redis; crash safety), ms. */
const LEASE_GRACE_MS = 60_000;

export interface ScrapeAccounting {
  /** The request to run: its timeout is what is left after waiting for a slot. */
  request: ScrapeRequest;
  /** Logger of the job (no URLs for zero data retention and lockdown). */
  log: Logger;
  /** Stamps credits and concurrency facts onto the document's metadata (before it is serialized). */
  finish(doc: Document): void;
  /**
   * Charges the finished scrape and records its activity (idempotent per scrape id; failures are
   * logged, never thrown). `into`: where the two writes go, e.g. the scrape's write bundle gated on
   * the stored document (core/store/write-bundle.ts `after`), so they share its statement; default:
   * a statement of their own.
   */
  charge(into?: Queryable): Promise<void>;
  /** Records a failed scrape: charges a lockdown cache miss, nothing else. */
  failed(error: unknown): Promise<void>;
  /** Frees the concurrency slot (idempotent). */
  release(): Promise<void>;
}

/**
 * Starts accounting for a scrape job: waits for a team slot.
 * @throws TrawlError CONCURRENCY_QUEUE_TIMEOUT (408) when no slot freed up in time;
 *         SCRAPE_JOB_CANCELLED when `signal` aborts while waiting
 */
export async function startScrapeAccounting(services: Services, data: AccountedScrape, signal?: AbortSignal): Promise<ScrapeAccounting> {
  const quiet = data.options.zeroDataRetention || data.options.lockdown;
  const log = scrapeLogger(services.log, { jobId: data.scrapeId, url: data.url }, quiet);
  const team = await teamSettings(services.db, data.teamId, services.config.accounts.authCacheMs);
  // Engines check threatProtection synchronously on every hop: have the threat lists loaded first.
  if (data.options.threatProtection && data.options.threatProtection.mode !== 'manual-only') await loadThreatLists(services.registry, services.config);
  const limit = team?.concurrency ?? services.config.team.concurrency;
  const page = data.jobId !== undefined;
  const timeout = data.options.timeout;
  const waitMs = page ? PAGE_SLOT_WAIT_MS : Math.max(0, (data.requestTimeoutMs ?? timeout) - MIN_RUN_MS);
  const slot: Slot | null = await limitsFor(services).slots.acquire(data.teamId, limit, {
    waitMs,
    leaseMs: timeout + LEASE_GRACE_MS,
    signal,
  });
  if (!slot) {
    if (signal?.aborted) throw new TrawlError('SCRAPE_JOB_CANCELLED', 'The scrape was cancelled while waiting for a concurrency slot.');
    throw new TrawlError(
      'CONCURRENCY_QUEUE_TIMEOUT',
      `The team's concurrency limit (${limit} scrapes at once) was reached and no slot freed up within ${waitMs} ms. ` +
        'Retry later, send fewer scrapes at once, or raise the team concurrency.',
    );
  }
  const options = page ? data.options : { ...data.options, timeout: Math.max(MIN_RUN_MS, timeout - slot.waitedMs) };
  let credits = 0;
  return {
    request: { scrapeId: data.scrapeId, url: data.url, sourceURL: data.sourceURL, options },
    log,
    finish(doc) {
      credits = scrapeCredits(data.options, doc, services.formats);
      doc.metadata.creditsUsed = credits;
      if (slot.queued) {
        doc.metadata.concurrencyLimited = true;
        doc.metadata.concurrencyQueueDurationMs = slot.waitedMs;
      }
    },
    async charge(into) {
      // The activity row and the ledger entry are independent: one statement (core/store/write-bundle.ts;
      // should it fail, each runs again on its own, so the charge never depends on the activity row).
      const bundle = into ? { query: into.query.bind(into), flush() {} } : writeBundle(services.db);
      const done = Promise.all([
        recordScrapeActivity(bundle, data, 'completed', credits, log),
        credits <= 0
          ? undefined
          : chargeCredits(bundle, { teamId: data.teamId, apiKeyId: data.keyId, jobId: data.jobId, kind: 'scrape', refId: data.scrapeId, credits }).catch(
            (err) => log.error({ err, credits }, 'could not record the credits of a scrape'),
          ),
      ]);
      bundle.flush();
      await done;
    },
    async failed(error) {
      const lockdownMiss = TrawlError.wrap(error).code === 'SCRAPE_LOCKDOWN_CACHE_MISS';
      await recordScrapeActivity(services.db, data, 'failed', lockdownMiss ? COSTS.lockdownMiss : 0, log);
      if (!lockdownMiss) return;
      await chargeCredits(services.db, {
        teamId: data.teamId, apiKeyId: data.keyId, jobId: data.jobId, kind: 'lockdown_miss', refId: data.scrapeId, credits: COSTS.lockdownMiss,
      }).catch((err) => log.error({ err }, 'could not record the credit of a lockdown miss'));
    },
    release: () => slot.release().catch((err) => log.warn({ err }, 'could not release a concurrency slot')),
  };
}
