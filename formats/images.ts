/**
 * The `images` format (compat.md §2.1: string[] of absolute URLs): every image of the whole raw page,
 * in document order, each URL once (first occurrence wins):
 * - `<img src>` and the best candidate of its `srcset` (largest width or density), and the best
 *   `srcset` candidate of each `<picture><source>`;
 * - `og:image` (and `og:image:url` / `:secure_url`), `twitter:image` (and `:src`) meta tags;
 * - icons: `<link rel>` icon, shortcut icon, apple-touch-icon, mask-icon;
 * resolved against `<base href>` or the page URL; only http(s) URLs are kept (`data:` and others are
 * left out). Documents without HTML give `[]`.
 */
import { defineFormat } from '../core/plugin.ts';
import { elements, parseHtml } from '../core/html/dom.ts';
import { baseUrlOf, bestSrcsetCandidate, resolveUrl } from '../core/html/urls.ts';

const META_IMAGE = new Set(['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src']);
const ICON_RELS = new Set(['icon', 'shortcut', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon']);

/**
 * The images of a page.
 * @param html raw page HTML
 * @param pageUrl final URL of the page
 * @returns unique absolute http(s) URLs in document order
 */
export function extractImages(html: string, pageUrl: string): string[] {
  if (!html) return [];
  const doc = parseHtml(html);
  const base = baseUrlOf(doc, pageUrl);
  const seen = new Set<string>();
  const add = (raw: string | undefined) => {
    const value = raw?.trim();
    if (!value || value.startsWith('data:')) return;
    const abs = resolveUrl(value, base);
    if (abs && /^https?:/i.test(abs)) seen.add(abs);
  };
  for (const el of elements(doc)) {
    const a = el.attribs;
    if (el.name === 'img') {
      add(a.src);
      if (a.srcset) add(bestSrcsetCandidate(a.srcset));
    } else if (el.name === 'source' && el.parent && 'name' in el.parent && el.parent.name === 'picture') {
      if (a.srcset) add(bestSrcsetCandidate(a.srcset));
    } else if (el.name === 'meta') {
      const key = (a.property ?? a.name ?? '').toLowerCase();
      if (META_IMAGE.has(key)) add(a.content);
    } else if (el.name === 'link') {
      const rels = (a.rel ?? '').toLowerCase().split(/\s+/);
      if (rels.some((r) => ICON_RELS.has(r))) add(a.href);
    }
  }
  return [...seen];
}

export default defineFormat({
  name: 'images',
  content: 'urls',
  pure: true,
  produce: (input) => ({ images: extractImages(input.rawHtml() ?? input.parsed.html ?? '', input.url) }),
});
