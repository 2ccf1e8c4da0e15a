/**
 * The `links` format (compat.md §2.1: string[] of absolute URLs): every link of the raw page, not only
 * of the main content. Rules (Trawl decisions, matching the reference where it has one):
 * - `<a href>` and `<area href>`, in document order, each URL once (first occurrence wins);
 * - resolved against `<base href>` or the page URL; fragments are kept (`/doc#part` is its own entry);
 * - kept schemes: http, https and mailto (the reference keeps mailto); javascript:, data:, tel: and
 *   other schemes are dropped, and so are same-page fragment links (`href="#top"`);
 * - hrefs that are not valid URLs are dropped;
 * - at most MAX_LINKS_PER_PAGE (10,000) links, the first ones (core/config.ts).
 */
import { MAX_LINKS_PER_PAGE } from '../config.ts';
import { elements, parseHtml, type Document } from './dom.ts';
import { baseUrlOf, resolveUrl } from './urls.ts';

const KEPT = new Set(['http:', 'https:', 'mailto:']);

/**
 * Extracts the links of a page.
 * @param html raw page HTML
 * @param pageUrl final URL of the page
 * @returns unique absolute URLs in document order
 */
export function extractLinks(html: string, pageUrl: string): string[] {
  if (!html) return [];
  return linksOf(parseHtml(html), pageUrl);
}

/**
 * The same from a parsed page (`parseHtml`), read before anything changes the tree.
 * @param max the most links returned (default MAX_LINKS_PER_PAGE)
 * @returns unique absolute URLs in document order
 */
export function linksOf(doc: Document, pageUrl: string, max = MAX_LINKS_PER_PAGE): string[] {
  const base = baseUrlOf(doc, pageUrl);
  const seen = new Set<string>();
  for (const el of elements(doc)) {
    if (el.name !== 'a' && el.name !== 'area') continue;
    const href = el.attribs.href?.trim();
    if (!href || href.startsWith('#')) continue;
    const abs = resolveUrl(href, base);
    if (!abs) continue;
    const scheme = abs.slice(0, abs.indexOf(':') + 1).toLowerCase();
    if (!KEPT.has(scheme)) continue;
    seen.add(abs);
    if (seen.size >= max) break;
  }
  return [...seen];
}
