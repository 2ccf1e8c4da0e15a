/**
 * Sitemap discovery (compat.md §7.2 Sitemaps): candidates are `<start>/sitemap.xml`, the robots.txt
 * `Sitemap:` lines and `<origin>/sitemap.xml`; sitemap indexes are followed, gzipped sitemaps
 * inflated, plain-text sitemaps (one URL per line) read; at most 20 sitemap files and 200,000 page
 * URLs are read, in slices that let the event loop in, and a broken file never drops its siblings. Pages found here have crawl depth 0 (interface.md).
 */
import { Parser } from 'htmlparser2';
import { fetchResource, type ResourceDeps } from './fetch-resource.ts';
import { parseHttpUrl } from './url-key.ts';
import { runAll, runYielding, SLICE_CHARS } from './yielding.ts';

/** At most this many sitemap files are fetched per discovery. */
export const MAX_SITEMAPS = 20;
/**
 * At most this many page URLs are read from sitemaps per discovery (one map, one crawl's kickoff),
 * whatever the caller asks: map asks for twice its `limit` (at most 100,000), a crawl four times its
 * own plus 100 (at most 100,000). Sitemap files are parsed only until the budget is spent.
 */
export const MAX_SITEMAP_URLS = 200_000;
const SITEMAP_TIMEOUT_MS = 15_000;

export interface SitemapResult {
  /** Page URLs in sitemap order, duplicates removed. */
  urls: string[];
  /** Sitemap files read successfully. */
  sitemaps: string[];
  /** Sitemap files that could not be read, with why. */
  failed: { url: string; error: string }[];
}

/**
 * Parses one sitemap body: page `<url><loc>` entries and child `<sitemap><loc>` entries.
 * @param maxPages stop once this many page URLs are read (the rest of the body is not parsed)
 */
export function parseSitemap(text: string, maxPages = Infinity): { pages: string[]; children: string[] } {
  return runAll(scanSitemap(text, maxPages));
}

/** Lines of a text sitemap read per slice. */
const SLICE_LINES = 5_000;

/** parseSitemap in slices (a `yield` every SLICE_CHARS of XML or SLICE_LINES lines of text). */
function* scanSitemap(text: string, maxPages: number): Generator<void, { pages: string[]; children: string[] }> {
  const pages: string[] = [];
  const children: string[] = [];
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('<')) {
    // Text sitemap: one absolute URL per line.
    for (let at = 0, n = 0; at < text.length && pages.length < maxPages; n++) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      const u = parseHttpUrl(text.slice(at, end).trim());
      if (u) pages.push(u.href);
      at = end + 1;
      if (n % SLICE_LINES === SLICE_LINES - 1) yield;
    }
    return { pages, children };
  }
  const stack: string[] = [];
  let loc = '';
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.slice(name.indexOf(':') + 1).toLowerCase();
        stack.push(local);
        if (local === 'loc') loc = '';
      },
      ontext(t) {
        if (stack[stack.length - 1] === 'loc') loc += t;
      },
      onclosetag() {
        const local = stack.pop();
        if (local !== 'loc') return;
        const parent = stack[stack.length - 1];
        const u = parseHttpUrl(loc.trim());
        if (!u) return;
        if (parent === 'sitemap') children.push(u.href);
        else if (parent === 'url' && pages.length < maxPages) pages.push(u.href);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  for (let at = 0; at < text.length && pages.length < maxPages; at += SLICE_CHARS) {
    parser.write(text.slice(at, at + SLICE_CHARS));
    yield;
  }
  parser.end();
  return { pages, children };
}

/** Candidate sitemap URLs for a start URL (compat.md §7.2 order), duplicates removed. */
export function sitemapCandidates(start: URL, robotsSitemaps: string[]): string[] {
  const out: string[] = [];
  const add = (u: string | undefined) => {
    if (u && !out.includes(u)) out.push(u);
  };
  const dir = start.pathname.replace(/\/[^/]*\.[a-z0-9]+$/i, '/').replace(/\/+$/, '');
  if (dir) add(`${start.origin}${dir}/sitemap.xml`);
  for (const s of robotsSitemaps) add(parseHttpUrl(s)?.href);
  add(`${start.origin}/sitemap.xml`);
  return out;
}

/**
 * Reads sitemaps breadth-first from `candidates`.
 * @param wanted  stop once this many page URLs are known (at most MAX_SITEMAP_URLS)
 * @param signal  aborts the remaining fetches
 */
export async function readSitemaps(deps: ResourceDeps, candidates: string[], wanted: number, signal?: AbortSignal): Promise<SitemapResult> {
  const maxUrls = Math.min(wanted, MAX_SITEMAP_URLS);
  const queue = [...candidates];
  const seenFiles = new Set<string>(queue);
  const seenUrls = new Set<string>();
  const result: SitemapResult = { urls: [], sitemaps: [], failed: [] };
  let fetched = 0;
  while (queue.length > 0 && fetched < MAX_SITEMAPS && result.urls.length < maxUrls && !signal?.aborted) {
    const url = queue.shift()!;
    fetched++;
    try {
      const res = await fetchResource(deps, url, SITEMAP_TIMEOUT_MS, signal);
      if (res.status !== 200 || res.text === undefined) throw new Error(`HTTP ${res.status}`);
      // Duplicates are dropped below, so read a little more than what is missing.
      const budget = Math.min(MAX_SITEMAP_URLS, 2 * (maxUrls - result.urls.length) + 1_000);
      const { pages, children } = await runYielding(scanSitemap(res.text, budget));
      if (pages.length === 0 && children.length === 0 && !/<(?:\w+:)?(?:urlset|sitemapindex)\b/.test(res.text)) {
        throw new Error('not a sitemap');
      }
      result.sitemaps.push(url);
      for (const child of children) {
        if (!seenFiles.has(child)) {
          seenFiles.add(child);
          queue.push(child);
        }
      }
      for (const page of pages) {
        if (seenUrls.has(page)) continue;
        seenUrls.add(page);
        result.urls.push(page);
        if (result.urls.length >= maxUrls) break;
      }
    } catch (e) {
      result.failed.push({ url, error: (e as Error).message });
      deps.log.debug({ sitemap: url, err: (e as Error).message }, 'sitemap not readable');
    }
  }
  return result;
}
