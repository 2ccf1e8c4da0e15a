/**
 * The scrape job: what a worker does with one queued scrape. Runs the pipeline, serializes the
 * Document once, stores it (unless zero data retention) and returns the serialized text so the API
 * answers with exactly the bytes that later reads return.
 */
import type { Services } from '../services.ts';
import { runScrape, type ScrapeDeps, type ScrapeRequest } from '../pipeline/scrape.ts';
import type { Logger } from '../log.ts';
import type { Queryable } from '../db/client.ts';
import { createScrapeCache, type CacheAnswer } from '../cache/index.ts';
import { profileOpener } from '../profiles/index.ts';
import { saveScrapeRecord } from '../interact/records.ts';
import { saveDocument } from '../store/documents.ts';
import { writeBundle } from '../store/write-bundle.ts';
import { indexScrapedDocument } from '../search/index-document.ts';
import { indexable } from '../search/visibility.ts';
import { startScrapeAccounting } from '../credits/scrape-accounting.ts';
import { keepsNoData } from '../privacy/retention.ts';
import { modelFor, type ModelBinding } from '../llm/service.ts';
import { pageVersionStore } from '../page-versions/index.ts';

export const SCRAPE_QUEUE = 'scrape';

/** Data of a queued scrape. */
export interface ScrapeJobData extends ScrapeRequest {
  teamId: string;
  /** API key that asked for it (per-key usage); undefined for keyless and auth-off calls. */
  keyId?: string;
  /** Crawl or batch id when the scrape belongs to one. */
  jobId?: string;
  /** The request's own timeout when the job runs longer (AccountedScrape.requestTimeoutMs), ms. */
  requestTimeoutMs?: number;
  /** The API looked this request up in the cache and missed: the scrape does not read it again. */
  cacheMissKey?: string;
}

/** Result of a scrape job: the serialized Document. */
export interface ScrapeJobResult {
  document: string;
}

/**
 * Runs one scrape job (worker side). Accounting (core/credits/scrape-accounting.ts) wraps it: a team
 * concurrency slot, `metadata.creditsUsed`, one charge per scrape id after success.
 * @param cached what the API already read from the cache for this request (a hit answered in the
 *               API process); default: `data.cacheMissKey`'s miss, if any
 */
export async function handleScrapeJob(services: Services, data: ScrapeJobData, signal: AbortSignal, cached?: CacheAnswer): Promise<ScrapeJobResult> {
  const account = await startScrapeAccounting(services, data, signal);
  const log = account.log;
  // The writes after the scrape (its cache entry, document, search index, scrape record, activity and
  // charge) go as one statement (core/store/write-bundle.ts): one round trip, one commit. Those of a
  // cache hit (document, record, activity, charge) join those of concurrent hits (group commit).
  const bundle = writeBundle(services.db, { group: true });
  try {
    const read = cached ?? (data.cacheMissKey ? { key: data.cacheMissKey } : undefined);
    const doc = await runScrape(account.request, scrapeDepsFor(services, data.teamId, log, { apiKeyId: data.keyId, jobId: data.jobId ?? data.scrapeId }, read, bundle), signal);
    account.finish(doc);
    const document = JSON.stringify(doc);
    // The writes after a scrape are independent: sent together, the database runs them back to back
    // (one queue on the embedded database, several connections on Postgres) instead of one per round trip.
    const writes: Promise<unknown>[] = [];
    if (!keepsNoData(data.options)) {
      writes.push(saveDocument(bundle, {
        id: data.scrapeId,
        jobId: data.jobId ?? null,
        teamId: data.teamId,
        url: String(doc.metadata.url),
        sourceUrl: data.sourceURL,
        statusCode: Number(doc.metadata.statusCode),
        body: document,
      }));
      // A cache hit's content was indexed when it was scraped.
      if (indexable(data.options) && doc.metadata.cacheState !== 'hit') writes.push(indexScrapedDocument(bundle, doc, data.teamId, log));
    }
    // What interact needs to replay the scrape; only a tombstone for zero data retention.
    writes.push(
      saveScrapeRecord(bundle, { id: data.scrapeId, teamId: data.teamId, url: data.url, sourceUrl: data.sourceURL, options: data.options })
        .catch((err) => log.warn({ err }, 'could not record the scrape for interact')),
    );
    // The charge and the activity row join the same statement (all or nothing). Should the bundle fall
    // back to writes on their own, they run only after every write above succeeded.
    const charged = account.charge(bundle.after(Promise.all(writes)));
    bundle.flush();
    // Every write settles before the outcome is known; the first failure (the document's) fails the scrape, uncharged.
    const failed = (await Promise.allSettled(writes)).find((r) => r.status === 'rejected');
    await charged;
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return { document };
  } catch (error) {
    await account.failed(error);
    throw error;
  } finally {
    bundle.flush(); // a cache entry filed before a later failure is still written, as before
    await account.release();
  }
}

/**
 * Pipeline dependencies of a scrape for `teamId`: the scrape cache, the team's named profiles
 * (issue 3), the model bound to the team, its tokens counted with `usage`'s key and job (issue 18),
 * and the team's page versions (change tracking, issue 20). Crawl and batch pages can use the same.
 * @param cacheWrites where the cache files entries without waiting (a write bundle the caller flushes)
 */
export function scrapeDepsFor(
  services: Services,
  teamId: string,
  log: Logger,
  usage: Omit<ModelBinding, 'teamId'> = {},
  cached?: CacheAnswer,
  cacheWrites?: Queryable,
): ScrapeDeps {
  return {
    model: modelFor(services, { teamId, ...usage }),
    pageVersions: pageVersionStore(services.db, teamId),
    config: services.config,
    log,
    registry: services.registry,
    blobs: services.blobs,
    cache: createScrapeCache(services.db, log, cached, cacheWrites),
    profiles: profileOpener(services.db, teamId, log),
    content: services.content,
  };
}

/** Registers the scrape worker on the queue. */
export async function startScrapeWorker(services: Services): Promise<void> {
  await services.queue.process<ScrapeJobData, ScrapeJobResult>(
    SCRAPE_QUEUE,
    (job, signal) => handleScrapeJob(services, job.data, signal),
    { concurrency: services.config.workerConcurrency },
  );
}
