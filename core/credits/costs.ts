/**
 * What each operation costs, in credits: the credits table of interface.md "Limits" and compat.md
 * §18.1, as pure functions. Nothing here touches the database; core/credits/ledger.ts records the
 * amounts these functions compute.
 */
import type { ScrapeOptions } from '../scrape/options.ts';
import { formatCredits, type FormatPlugins } from '../scrape/formats.ts';

/** Credit constants (interface.md "Limits", Credits). */
export const COSTS = {
  /** A scraped page (scrape, crawl page, batch page, parse). */
  page: 1,
  /** Lockdown scrape served from the cache. */
  lockdownHit: 5,
  /** Lockdown scrape that found nothing in the cache (404 SCRAPE_LOCKDOWN_CACHE_MISS). */
  lockdownMiss: 1,
  /** Search: credits per started block of 10 results. */
  searchPer10: 2,
  /** Search with `enterprise: ["zdr"]`: credits per started block of 10 results. */
  searchZdrPer10: 10,
  /** Search with `enterprise: ["anon"]`: credits per started block of 10 results. */
  searchAnonPer10: 2,
  /** Map: one call (compat.md §18.1, from the reference). */
  map: 1,
  /** Search feedback: refund of the first submission for a job. */
  feedbackRefund: 1,
} as const;

/** The document facts a scrape's cost depends on. */
export interface ScrapeCostFacts {
  metadata: {
    /** Billable units the pipeline counted: PDF pages, or 1 (1 flat credit for a base64 PDF). */
    creditsUsed?: unknown;
    cacheState?: unknown;
  };
}

/**
 * Credits of one successful scrape (one page of a crawl or batch included).
 *
 * - base: the pipeline's billable units (`metadata.creditsUsed`: 1 per PDF page when parsed, 1 flat for
 *   a PDF returned base64 with `parsers: []`, otherwise 1);
 * - lockdown served from the cache: 5 instead of the base;
 * - plus the credits per page each requested format declares (`FormatPlugin.credits`; JSON mode: +4).
 * Enhanced proxy costs nothing extra (compat.md §20).
 * @param plugins the registered format plugins (`Services.formats`)
 */
export function scrapeCredits(options: Pick<ScrapeOptions, 'formats' | 'lockdown'>, doc: ScrapeCostFacts, plugins: FormatPlugins): number {
  const units = Number(doc.metadata.creditsUsed);
  let credits = Number.isFinite(units) && units >= 1 ? Math.ceil(units) * COSTS.page : COSTS.page;
  if (options.lockdown && doc.metadata.cacheState === 'hit') credits = COSTS.lockdownHit;
  credits += formatCredits(options.formats, plugins);
  return credits;
}

/**
 * Credits of a search (interface.md Limits: 2 per 10 results rounded up; zdr 10 per 10; anon 2 per 10).
 * The scrape cost of each result with `scrapeOptions` is charged per document on top (by the scrape
 * worker), so it is not included here.
 * @param results number of results returned (all sources together)
 * @param enterprise the request's `enterprise` list
 */
export function searchCredits(results: number, enterprise: readonly string[] = []): number {
  const blocks = Math.ceil(Math.max(0, results) / 10);
  const per10 = enterprise.includes('zdr') ? COSTS.searchZdrPer10 : enterprise.includes('anon') ? COSTS.searchAnonPer10 : COSTS.searchPer10;
  return blocks * per10;
}

