/**
 * Batch scrape jobs (compat.md §6): the URL list is validated (`ignoreInvalidURLs`), then the batch is
 * a crawl without discovery: one frontier row per URL (duplicates kept, `metadata.sourceURL` exactly
 * as given), scraped by the crawl worker with the flat scrape options. `appendToId` adds URLs to a
 * batch of the same team, reopening it if it had completed.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { normalizeTargetUrl } from '../pipeline/scrape-options.ts';
import { insertBatchUrls } from '../store/crawls.ts';
import { lockJob, promote, type QueueItem } from '../store/crawl-urls.ts';

export interface CheckedUrls {
  valid: { url: string; sourceUrl: string }[];
  invalid: string[];
}

/**
 * Splits the request's URLs into valid and invalid ones.
 * @throws TrawlError BAD_REQUEST on an invalid URL when `ignoreInvalidURLs` is false, or when none is valid
 */
export function checkBatchUrls(urls: unknown[], ignoreInvalidURLs: boolean): CheckedUrls {
  const out: CheckedUrls = { valid: [], invalid: [] };
  for (const raw of urls) {
    const given = String(raw);
    try {
      out.valid.push({ url: normalizeTargetUrl(given), sourceUrl: given });
    } catch (e) {
      if (!ignoreInvalidURLs) throw new TrawlError('BAD_REQUEST', `Invalid URL in urls: ${(e as Error).message}`);
      out.invalid.push(given);
    }
  }
  if (out.valid.length === 0) throw new TrawlError('BAD_REQUEST', 'No valid URLs provided');
  return out;
}

/**
 * Appends URLs to an existing batch (`appendToId`).
 * @returns queue items to add
 * @throws TrawlError JOB_NOT_FOUND, FORBIDDEN (other team), CONFLICT (cancelled batch)
 */
export async function appendToBatch(services: Services, batchId: string, teamId: string, urls: CheckedUrls['valid']): Promise<QueueItem[]> {
  return services.db.transaction(async (tx) => {
    const job = await lockJob(tx, batchId);
    if (!job || job.kind !== 'batch_scrape') throw new TrawlError('JOB_NOT_FOUND', 'Job not found');
    if (job.teamId !== teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
    if (job.state === 'cancelled') throw new TrawlError('CONFLICT', 'Batch scrape was cancelled; start a new one');
    const [{ next_ordinal }] = await tx.query<{ next_ordinal: number }>('select next_ordinal from crawl_jobs where id = $1', [batchId]);
    await insertBatchUrls(tx, batchId, next_ordinal, urls);
    await tx.query(
      `update crawl_jobs set next_ordinal = next_ordinal + $2, accepted = accepted + $2, state = 'running', updated_at = now() where id = $1`,
      [batchId, urls.length],
    );
    await tx.query(`update jobs set status = 'scraping', completed_at = null, expires_at = null, updated_at = now() where id = $1`, [batchId]);
    job.state = 'running';
    return promote(tx, job);
  });
}
