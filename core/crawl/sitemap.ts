/**
 * Sitemap discovery (compat.md §7.2 Sitemaps): candidates are `<start>/sitemap.xml`, the robots.txt
 * `Sitemap:` lines and `<origin>/sitemap.xml`; sitemap indexes are followed, gzipped sitemaps
 * inflated, plain-text sitemaps (one URL per line) read; at most 20 sitemap files are fetched and a
 * broken one never drops its siblings. Pages found here have crawl depth 0 (interface.md).
 */
import { Parser } from 'htmlparser2';
import { fetchResource, type ResourceDeps } from './fetch-resource.ts';
import { parseHttpUrl } from './url-key.ts';

/** At most this many sitemap files are fetched per discovery. */
export const MAX_SITEMAPS = 20;
const SITEMAP_TIMEOUT_MS = 15_000;

export interface SitemapResult {
  /** Page URLs in sitemap order, duplicates removed. */
  urls: string[];
  /** Sitemap files read successfully. */
  sitemaps: string[];
  /** Sitemap files that could not be read, with why. */
  failed: { url: string; error: string }[];
}

/** Parses one sitemap body: page `<url><loc>` entries and child `<sitemap><loc>` entries. */
export function parseSitemap(text: string): { pages: string[]; children: string[] } {
  const pages: string[] = [];
  const children: string[] = [];
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('<')) {
    // Text sitemap: one absolute URL per line.
    for (const line of text.split(/\r?\n/)) {
      const u = parseHttpUrl(line.trim());
      if (u) pages.push(u.href);
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
        else if (parent === 'url') pages.push(u.href);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
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
 * @param maxUrls stop once this many page URLs are known
 * @param signal  aborts the remaining fetches
 */
export async function readSitemaps(deps: ResourceDeps, candidates: string[], maxUrls: number, signal?: AbortSignal): Promise<SitemapResult> {
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
      const { pages, children } = parseSitemap(res.text);
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
