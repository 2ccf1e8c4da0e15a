/**
 * Map (compat.md §10): the URLs of a site without scraping them — sitemap URLs (robots.txt
 * `Sitemap:` lines, `/sitemap.xml`, indexes, gzip) and the links of the start page, kept within the
 * start host (and its subdomains with `includeSubdomains`) and under the start path, deduplicated by
 * the crawl's normalization (query dropped by default), optionally ranked by a `search` query, cut to
 * `limit`. Titles and descriptions are given where known (the start page). Reads at most 200,000
 * sitemap URLs (core/crawl/sitemap.ts) and 10,000 start-page links (MAX_LINKS_PER_PAGE), in slices:
 * map runs in the API process.
 */
import type { DiscoveryDeps } from './discovery.ts';
import { TrawlError } from '../errors.ts';
import { fetchResource } from './fetch-resource.ts';
import { extractLinksYielding } from './links.ts';
import { breathe } from './yielding.ts';
import { fetchRobotsText, parseRobots } from './robots.ts';
import { extensionOf, hostRelation, underPath } from './scope.ts';
import { readSitemaps, sitemapCandidates } from './sitemap.ts';
import { fetchUrlOf, parseHttpUrl, urlKey, type KeyOptions } from './url-key.ts';
import type { SitemapMode } from './options.ts';

export interface MapRequest {
  /** Normalized start URL. */
  url: string;
  search?: string;
  sitemap: SitemapMode;
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  limit: number;
  /** Extra headers of the start page fetch: Accept-Language from `location` (compat.md §10). */
  headers?: Record<string, string>;
}

export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}

const START_PAGE_TIMEOUT_MS = 20_000;
const NEVER_LISTED = new Set('png jpg jpeg gif webp svg ico bmp css js mjs map woff woff2 ttf otf eot mp3 mp4 webm zip gz tgz exe dmg'.split(' '));

/** Words of a search query, lower case. */
function terms(search: string): string[] {
  return search.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

/** Relevance of a link to search terms: whole query in the URL counts most, then each term. */
export function relevance(link: MapLink, search: string): number {
  const q = search.toLowerCase().trim();
  const hay = `${decodeURIComponent(link.url).toLowerCase()} ${(link.title ?? '').toLowerCase()} ${(link.description ?? '').toLowerCase()}`;
  let score = q && hay.includes(q) ? 10 : 0;
  for (const t of terms(search)) if (hay.includes(t)) score += 1 + (link.url.toLowerCase().includes(t) ? 1 : 0);
  return score;
}

/**
 * Maps a site.
 * @param signal aborted at the request's `timeout`
 * @throws TrawlError MAP_TIMEOUT when `signal` aborted first
 */
export async function runMap(deps: Omit<DiscoveryDeps, 'db'>, req: MapRequest, signal: AbortSignal): Promise<{ links: MapLink[]; warning?: string }> {
  const start = new URL(req.url);
  const keys: KeyOptions = { ignoreQueryParameters: req.ignoreQueryParameters, deduplicateSimilarURLs: true };
  const basePath = start.pathname;
  const found: MapLink[] = [{ url: fetchUrlOf(start, keys) }];

  const startPage = req.sitemap === 'only' ? undefined : fetchResource(deps, start.href, START_PAGE_TIMEOUT_MS, signal, req.headers).catch(() => undefined);
  if (req.sitemap !== 'skip') {
    const robots = parseRobots(start.origin, await fetchRobotsText(deps, start.origin, signal));
    const sitemaps = await readSitemaps(deps, sitemapCandidates(start, robots.sitemaps()), Math.max(req.limit * 2, 1000), signal);
    for (const u of sitemaps.urls) found.push({ url: u });
  }
  const page = await startPage;
  if (page?.text && /html|xml/.test(page.contentType)) {
    const { links, title, description } = await extractLinksYielding(page.text, page.url);
    found[0] = { url: found[0].url, ...(title ? { title } : {}), ...(description ? { description } : {}) };
    for (const u of links) found.push({ url: u });
  }
  if (signal.aborted) throw new TrawlError('MAP_TIMEOUT', 'The map operation timed out. Raise "timeout" or map a smaller part of the site.');

  const out: MapLink[] = [];
  const seen = new Map<string, MapLink>();
  for (let i = 0; i < found.length; i++) {
    if (i % 2_000 === 1_999) await breathe(); // up to 210,000 URLs: let /health and the rest in
    const link = found[i]!;
    const parsed = parseHttpUrl(link.url);
    if (!parsed) continue;
    const relation = hostRelation(parsed.hostname, start, true);
    if (relation === 'external' || (relation === 'subdomain' && !req.includeSubdomains)) continue;
    if (NEVER_LISTED.has(extensionOf(parsed.pathname))) continue;
    if (basePath !== '/' && !underPath(parsed.pathname, basePath) && !parsed.pathname.startsWith(basePath)) continue;
    const key = urlKey(parsed, keys);
    const prior = seen.get(key);
    if (prior) {
      if (!prior.title && link.title) Object.assign(prior, { title: link.title, description: link.description });
      continue;
    }
    const entry: MapLink = { url: fetchUrlOf(parsed, keys), ...(link.title ? { title: link.title } : {}), ...(link.description ? { description: link.description } : {}) };
    seen.set(key, entry);
    out.push(entry);
  }
  let links = out;
  if (req.search?.trim()) {
    const scored = links.map((l, i) => ({ l, i, s: relevance(l, req.search!) }));
    scored.sort((a, b) => b.s - a.s || a.i - b.i);
    links = scored.map((x) => x.l);
  }
  links = links.slice(0, req.limit);
  const warning =
    links.length <= 1 && basePath !== '/'
      ? `Only ${links.length} result(s) found. Try mapping the base domain (${start.hostname}) for more URLs.`
      : undefined;
  return { links, ...(warning ? { warning } : {}) };
}
