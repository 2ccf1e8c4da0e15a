/**
 * The pages of an extract (compat.md §12): each entry of `urls` is normalized and checked against
 * the target policy and threat protection; an entry ending in `/*` is a glob that expands through
 * Trawl's own map of that site (core/crawl/map.ts: sitemap unless `ignoreSitemap`, and the links of
 * the page at the glob's base, within the base path; subdomains with `includeSubdomains`), at most
 * MAX_GLOB_PAGES pages per glob and MAX_EXTRACT_URLS pages in all. Runs in the API process, so a
 * glob that finds nothing is a 400 the caller sees at once.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { normalizeTargetUrl } from '../pipeline/scrape-options.ts';
import { assertFetchable } from '../net/address.ts';
import { withDeadline } from '../net/deadline.ts';
import { runMap } from '../crawl/map.ts';
import { assertThreatAllowed } from '../threat/check.ts';
import type { ThreatPolicy } from '../threat/policy.ts';
import { MAX_EXTRACT_URLS, MAX_GLOB_PAGES, type ExtractRequest } from './request.ts';

/** Longest a glob's map may take, ms. */
const GLOB_MAP_TIMEOUT_MS = 30_000;

export interface ExtractUrls {
  /** Pages to read, normalized, deduplicated, in request order (a glob's pages where it stood). */
  urls: string[];
  /** Entries refused (invalid, or an unsafe target) when `ignoreInvalidURLs` is on. */
  invalid: string[];
}

/** Whether an entry is a glob (`https://example.org/blog/*`). */
export const isGlob = (entry: string): boolean => entry.trim().endsWith('/*');

/**
 * Checks the entries and expands the globs.
 * @throws TrawlError BAD_REQUEST for an invalid entry (unless `ignoreInvalidURLs`), a glob whose map
 *         finds no page under it, or no page left; UNSAFE_TARGET / THREAT_* for a refused target
 *         (unless `ignoreInvalidURLs`); MAP_TIMEOUT when a glob's map takes over 30 s
 */
export async function resolveExtractUrls(
  services: Pick<Services, 'config' | 'log' | 'registry' | 'blobs'>,
  req: Pick<ExtractRequest, 'rawUrls' | 'ignoreInvalidURLs' | 'includeSubdomains' | 'ignoreSitemap'>,
  threat: ThreatPolicy | undefined,
): Promise<ExtractUrls> {
  const out: ExtractUrls = { urls: [], invalid: [] };
  const seen = new Set<string>();
  const add = (u: string) => {
    if (!seen.has(u) && out.urls.length < MAX_EXTRACT_URLS) {
      seen.add(u);
      out.urls.push(u);
    }
  };
  for (const entry of req.rawUrls) {
    const glob = isGlob(entry);
    let url: string;
    try {
      url = normalizeTargetUrl(glob ? entry.trim().slice(0, -1) : entry);
      assertThreatAllowed(url, threat);
      await assertFetchable(url, services.config.targets);
    } catch (e) {
      const err = TrawlError.wrap(e);
      const refusable = err.code === 'BAD_REQUEST' || err.code === 'UNSAFE_TARGET' || err.code.startsWith('THREAT_');
      if (!req.ignoreInvalidURLs || !refusable) throw err;
      out.invalid.push(entry);
      continue;
    }
    if (!glob) {
      add(url);
      continue;
    }
    const { links } = await withDeadline(GLOB_MAP_TIMEOUT_MS, undefined, (signal) =>
      runMap(
        { config: services.config, log: services.log.child({ component: 'extract-glob' }), registry: services.registry, blobs: services.blobs },
        { url, sitemap: req.ignoreSitemap ? 'skip' : 'include', includeSubdomains: req.includeSubdomains, ignoreQueryParameters: true, limit: MAX_GLOB_PAGES },
        signal,
      ),
    );
    const base = new URL(url);
    const pages = links.map((l) => l.url).filter((u) => u !== base.href && u !== `${base.href}/`);
    if (pages.length === 0) {
      throw new TrawlError(
        'BAD_REQUEST',
        `The glob ${entry.slice(0, 300)} found no pages: the map of ${base.origin} lists nothing under ${base.pathname} ` +
          `(${req.ignoreSitemap ? 'ignoreSitemap is on, and ' : 'the site has no sitemap listing such pages, and '}the page at ${url} links to none). List the page URLs instead.`,
      );
    }
    add(url);
    for (const p of pages) {
      try {
        assertThreatAllowed(p, threat);
        add(p);
      } catch {
        out.invalid.push(p);
      }
    }
  }
  if (out.urls.length === 0 && req.rawUrls.length > 0) {
    throw new TrawlError('BAD_REQUEST', `No valid URLs provided: ${out.invalid.slice(0, 5).join(', ')} ${out.invalid.length > 5 ? '…' : ''}`.trim());
  }
  return out;
}
