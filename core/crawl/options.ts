/**
 * Crawler options: the crawl request body (interface.md "Crawl request body", compat.md §7.1) in,
 * `CrawlerOptions` out, with the defaults of the spec, the v1 aliases of compat.md §19, the start URL
 * normalized and the path patterns checked (RE2, size limits). Stored with the crawl and read by
 * every worker, so it holds only JSON.
 */
import { TrawlError } from '../errors.ts';
import { normalizeTargetUrl } from '../pipeline/scrape-options.ts';
import { compilePatterns } from './patterns.ts';
import type { ScopeRules } from './scope.ts';
import type { KeyOptions } from './url-key.ts';
import type { ThreatPolicy } from '../threat/policy.ts';

export type SitemapMode = 'include' | 'skip' | 'only';

export interface CrawlerOptions {
  /** threatProtection in force (set by the crawl route): discovered links it blocks are skipped as errors. */
  threatProtection?: ThreatPolicy;
  /** Start URL to fetch (normalized). */
  url: string;
  /** Start URL exactly as given (its documents' `metadata.sourceURL`). */
  sourceURL: string;
  /** Maximum pages (default 10000). */
  limit: number;
  /** Links of pages at this depth are not followed; root and sitemap pages have depth 0. */
  maxDiscoveryDepth?: number;
  sitemap: SitemapMode;
  crawlEntireDomain: boolean;
  allowSubdomains: boolean;
  allowExternalLinks: boolean;
  ignoreQueryParameters: boolean;
  deduplicateSimilarURLs: boolean;
  regexOnFullURL: boolean;
  ignoreRobotsTxt: boolean;
  robotsUserAgent?: string;
  includePaths: string[];
  excludePaths: string[];
  /** Seconds between scrapes; forces concurrency 1. */
  delay?: number;
  maxConcurrency?: number;
}

/** interface.md Limits: crawl page limit default. */
export const DEFAULT_CRAWL_LIMIT = 10_000;

const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);

/**
 * Resolves a crawl request body (v2, or v1 with `maxDepth`, `allowBackwardLinks`, `ignoreSitemap`).
 * @throws TrawlError BAD_REQUEST for a bad URL or pattern (look-around, backreferences, size limits)
 */
export function resolveCrawlerOptions(body: Record<string, any>): CrawlerOptions {
  const url = normalizeTargetUrl(String(body.url ?? ''));
  const includePaths = (body.includePaths ?? []) as string[];
  const excludePaths = (body.excludePaths ?? []) as string[];
  compilePatterns(includePaths, excludePaths);
  let sitemap: SitemapMode = body.sitemap ?? 'include';
  if (body.sitemap === undefined && body.ignoreSitemap === true) sitemap = 'skip';
  if (body.sitemap === undefined && body.sitemapOnly === true) sitemap = 'only';
  const maxDiscoveryDepth = body.maxDiscoveryDepth ?? body.maxDepth;
  const delay = typeof body.delay === 'number' && body.delay > 0 ? body.delay : undefined;
  if (delay !== undefined && delay > 60) throw new TrawlError('BAD_REQUEST', 'delay must be at most 60 seconds');
  return {
    url,
    sourceURL: String(body.url).trim(),
    limit: body.limit ?? DEFAULT_CRAWL_LIMIT,
    maxDiscoveryDepth: typeof maxDiscoveryDepth === 'number' ? maxDiscoveryDepth : undefined,
    sitemap,
    crawlEntireDomain: bool(body.crawlEntireDomain, bool(body.allowBackwardLinks, false)),
    allowSubdomains: bool(body.allowSubdomains, false),
    allowExternalLinks: bool(body.allowExternalLinks, false),
    ignoreQueryParameters: bool(body.ignoreQueryParameters, false),
    deduplicateSimilarURLs: bool(body.deduplicateSimilarURLs, true),
    regexOnFullURL: bool(body.regexOnFullURL, false),
    ignoreRobotsTxt: bool(body.ignoreRobotsTxt, false),
    robotsUserAgent: typeof body.robotsUserAgent === 'string' && body.robotsUserAgent.trim() ? body.robotsUserAgent.trim() : undefined,
    includePaths,
    excludePaths,
    delay,
    maxConcurrency: typeof body.maxConcurrency === 'number' ? body.maxConcurrency : undefined,
  };
}

/** Dedupe key options of a crawl. */
export function keyOptions(o: Pick<CrawlerOptions, 'ignoreQueryParameters' | 'deduplicateSimilarURLs'>): KeyOptions {
  return { ignoreQueryParameters: o.ignoreQueryParameters, deduplicateSimilarURLs: o.deduplicateSimilarURLs };
}

/** Scope rules of a crawl (patterns compiled). */
export function scopeRules(o: CrawlerOptions): ScopeRules {
  const { include, exclude } = compilePatterns(o.includePaths, o.excludePaths);
  return {
    start: new URL(o.url),
    crawlEntireDomain: o.crawlEntireDomain,
    allowSubdomains: o.allowSubdomains,
    allowExternalLinks: o.allowExternalLinks,
    regexOnFullURL: o.regexOnFullURL,
    include,
    exclude,
  };
}

/**
 * Pages a crawl or batch scrapes at once (interface.md Limits: team limit by default; `delay` forces 1;
 * compat.md §18.2: `maxConcurrency` is capped at the team limit).
 */
export function effectiveConcurrency(maxConcurrency: number | undefined, delay: number | undefined, teamConcurrency: number): number {
  if (delay) return 1;
  const team = Math.max(1, teamConcurrency);
  return Math.max(1, Math.min(team, maxConcurrency ?? team));
}
