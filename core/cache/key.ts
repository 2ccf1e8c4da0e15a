/**
 * Cache keys of the scrape cache (interface.md `maxAge`, `storeInCache`; issue 3 scope 5): a cached
 * document may answer a request only when everything that shapes the output is the same. The key is
 * the sha256 of the normalized URL plus every option that changes the document: formats (with their
 * options), onlyMainContent, include/exclude tags, mobile, location, parsers, waitFor, blockAds,
 * removeBase64Images, onlyCleanContent and redactPII. Options that change how a page is reached but not
 * what it says (timeout, proxy, skipTlsVerification, threatProtection, cache options) are left out.
 * Requests with actions, headers or a profile are never cached (core/cache/index.ts).
 */
import { createHash } from 'node:crypto';
import type { ScrapeOptions } from '../scrape/options.ts';

/**
 * The URL a cache entry is filed under: fragment dropped, query parameters sorted (by name, stable),
 * host lower-cased and default port removed (by `URL`). Path and scheme are kept: they can change the page.
 * @param url absolute http(s) URL (already normalized by `normalizeTargetUrl`)
 */
export function cacheUrl(url: string): string {
  const u = new URL(url);
  u.hash = '';
  const params = [...u.searchParams.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  u.search = '';
  for (const [k, v] of params) u.searchParams.append(k, v);
  return u.href;
}

/** JSON with object keys sorted, so equal option objects give equal text. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sorted = (xs: string[] | undefined) => (xs && xs.length ? [...xs].sort() : undefined);

/**
 * The cache key of a scrape.
 * @returns 64 hex characters
 */
export function cacheKey(url: string, options: ScrapeOptions): string {
  const shape = {
    v: 1,
    url: cacheUrl(url),
    formats: [...options.formats].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0)),
    onlyMainContent: options.onlyMainContent,
    includeTags: sorted(options.includeTags),
    excludeTags: sorted(options.excludeTags),
    mobile: options.mobile,
    location: options.location ? { country: options.location.country, languages: options.location.languages } : undefined,
    parsers: options.parsers,
    waitFor: options.waitFor,
    blockAds: options.blockAds,
    removeBase64Images: options.removeBase64Images,
    onlyCleanContent: options.onlyCleanContent,
    redactPII: options.redactPII,
  };
  return createHash('sha256').update(stable(shape)).digest('hex');
}
