/**
 * Search with `scrapeOptions`: every web and news result is scraped in parallel through the scrape
 * queue (the same jobs as `POST /v2/scrape`, so workers, accounting and the index hook apply), and the
 * Document fields are merged into the result item (compat.md §11.1). Scrapes share the search
 * deadline: one that is not done in time is cancelled and its item keeps only the search fields plus
 * `metadata.error`. A failed scrape never fails the search.
 */
import type { Services } from '../services.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { normalizeTargetUrl } from '../pipeline/scrape-options.ts';
import { assertFetchable } from '../net/address.ts';
import { SCRAPE_QUEUE, type ScrapeJobData, type ScrapeJobResult } from '../jobs/scrape.ts';
import { scrapeCredits } from '../credits/costs.ts';
import { assertThreatAllowed } from '../threat/check.ts';

export interface ScrapeOutcome {
  /** The scraped Document, or undefined when the scrape failed. */
  document?: Record<string, unknown> & { metadata: Record<string, unknown> };
  /** Why the scrape failed. */
  error?: TrawlError;
  credits: number;
}

/** Shortest time a scrape is given even when the search deadline is close, ms. */
const MIN_SCRAPE_MS = 1_000;

/**
 * Scrapes result URLs.
 * @param urls     result URLs, in order
 * @param options  resolved scrape options (zero data retention already forced for enterprise zdr)
 * @param deadline epoch ms by which every scrape must be done
 * @returns one outcome per URL, same order
 */
export async function scrapeResultUrls(
  services: Services,
  urls: string[],
  options: ScrapeOptions,
  caller: { teamId: string; keyId?: string },
  deadline: number,
): Promise<ScrapeOutcome[]> {
  return Promise.all(
    urls.map(async (sourceURL): Promise<ScrapeOutcome> => {
      const scrapeId = newId();
      try {
        const url = normalizeTargetUrl(sourceURL);
        await assertFetchable(url, services.config.targets);
        assertThreatAllowed(url, options.threatProtection);
        const remaining = Math.max(MIN_SCRAPE_MS, deadline - Date.now());
        const opts: ScrapeOptions = { ...options, timeout: Math.min(options.timeout, remaining) };
        const data: ScrapeJobData = { scrapeId, url, sourceURL, options: opts, teamId: caller.teamId, keyId: caller.keyId };
        await services.queue.add(SCRAPE_QUEUE, 'scrape', data, { id: scrapeId });
        let result: ScrapeJobResult;
        try {
          result = await services.queue.waitFor<ScrapeJobResult>(scrapeId, remaining + 500);
        } catch (e) {
          const err = TrawlError.wrap(e);
          if (err.code === 'GATEWAY_TIMEOUT') {
            await services.queue.cancel(scrapeId).catch(() => {});
            throw new TrawlError('SCRAPE_TIMEOUT', `Scrape of ${sourceURL} did not finish within the search timeout.`);
          }
          throw err;
        }
        const document = JSON.parse(result.document) as ScrapeOutcome['document'] & {};
        return { document, credits: scrapeCredits(opts, document as never, services.formats) };
      } catch (e) {
        const error = TrawlError.wrap(e);
        services.log.debug({ err: error.message, code: error.code }, 'search result scrape failed');
        return { error, credits: 0 };
      }
    }),
  );
}

/** A result item with its scrape merged in (compat.md §11.1: Document fields join the item). */
export function mergeScrape<T extends Record<string, unknown>>(item: T, outcome: ScrapeOutcome): T & Record<string, unknown> {
  if (outcome.document) {
    const { url: _u, title: _t, description: _d, position: _p, ...fields } = outcome.document as Record<string, unknown>;
    return { ...item, ...fields };
  }
  const error = outcome.error;
  return {
    ...item,
    metadata: {
      sourceURL: item.url,
      url: item.url,
      statusCode: (error?.details as { statusCode?: number } | undefined)?.statusCode ?? 0,
      error: error?.message ?? 'The result could not be scraped.',
      errorCode: error?.code ?? 'UNKNOWN_ERROR',
    },
  };
}
