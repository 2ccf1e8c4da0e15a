/**
 * Search result items: cleaning a provider's hits (valid http(s) URLs, no duplicates, the query's site
 * filters, `tbs` date ranges on known dates, image size operators) and shaping them into the items of
 * compat.md §11.1: web `{url, title, description, position, category?}`, news `{title, url, snippet,
 * date?, imageUrl?, position, category?}`, images `{title, imageUrl, imageWidth?, imageHeight?, url,
 * position}`. Positions are 1-based per group.
 */
import type { SearchHit } from '../plugin.ts';
import { categoryOf } from './categories.ts';
import { matchesFilters, type ParsedQuery } from './operators.ts';
import { timeBounds } from './tbs.ts';
import type { ResolvedSearch, ResolvedSource } from './request.ts';

export type ResultItem = Record<string, unknown>;

function canonical(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    u.hash = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Cleans one source's hits.
 * @param parsed the provider query's operators (the post-filter for providers that ignore them)
 * @returns at most `limit` hits, provider order kept
 */
export function cleanHits(hits: SearchHit[], src: ResolvedSource, parsed: ParsedQuery, limit: number): SearchHit[] {
  const seen = new Set<string>();
  const { from, to } = timeBounds(src.source === 'web' ? src.tbs : undefined);
  const size = parsed.imageSize;
  const out: SearchHit[] = [];
  for (const h of hits) {
    const key = canonical(h.url);
    if (!key || seen.has(key) || !matchesFilters(h.url, parsed)) continue;
    if (h.publishedAt && (from !== undefined || to !== undefined)) {
      const t = Date.parse(h.publishedAt);
      if ((from !== undefined && t < from) || (to !== undefined && t > to)) continue;
    }
    if (src.source === 'images') {
      if (!h.imageUrl) continue;
      if (size && h.imageWidth && h.imageHeight) {
        const ok = size.larger
          ? h.imageWidth >= size.width && h.imageHeight >= size.height
          : h.imageWidth === size.width && h.imageHeight === size.height;
        if (!ok) continue;
      }
    }
    seen.add(key);
    out.push(h);
    if (out.length >= limit) break;
  }
  return out;
}

/** The response item of a hit. */
export function toItem(h: SearchHit, source: ResolvedSource['source'], position: number, r: Pick<ResolvedSearch, 'categories'>): ResultItem {
  const category = source === 'images' ? undefined : categoryOf(h.url, r.categories);
  if (source === 'news') {
    const item: ResultItem = { title: h.title, url: h.url, snippet: h.description };
    if (h.date) item.date = h.date;
    if (h.imageUrl) item.imageUrl = h.imageUrl;
    item.position = position;
    if (category) item.category = category;
    return item;
  }
  if (source === 'images') {
    const item: ResultItem = { title: h.title, imageUrl: h.imageUrl };
    if (h.imageWidth) item.imageWidth = Math.round(h.imageWidth);
    if (h.imageHeight) item.imageHeight = Math.round(h.imageHeight);
    return { ...item, url: h.url, position };
  }
  return { url: h.url, title: h.title, description: h.description, position, ...(category ? { category } : {}) };
}

/** Error codes that mean "this URL cannot be scraped at all" (dropped with `ignoreInvalidURLs`). */
const INVALID_URL_CODES = new Set(['BAD_REQUEST', 'UNSAFE_TARGET', 'SCRAPE_DNS_RESOLUTION_ERROR']);

/** Drops items whose scrape failed because the URL is invalid or refused, and renumbers positions. */
export function dropInvalid(items: ResultItem[]): ResultItem[] {
  return items
    .filter((it) => !INVALID_URL_CODES.has(String((it.metadata as { errorCode?: string } | undefined)?.errorCode)))
    .map((it, i) => ({ ...it, position: i + 1 }));
}
