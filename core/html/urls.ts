/**
 * URL handling for HTML documents: the base URL (`<base href>` resolved against the page URL), making
 * `href`/`src`/`srcset`/`poster`/`cite` absolute, and promoting lazy-loading attributes (`data-src`,
 * `data-srcset` ...) so images survive cleaning. Invalid URLs are left as they are; `javascript:` links
 * lose their `href` (the text stays).
 */
import { elementList, findFirst, type Document, type Element, type ParentNode } from './dom.ts';

/** Resolves `href` against `base` (none: `href` must be absolute); undefined when it is not a valid URL. */
export function resolveUrl(href: string, base: string | URL | undefined): string | undefined {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return undefined;
  }
}

/** The document's base URL: the first `<base href>` resolved against `pageUrl`, else `pageUrl`. */
export function baseUrlOf(doc: Document, pageUrl: string): string {
  const base = findFirst(doc, 'base');
  const href = base?.attribs.href;
  if (href) {
    const resolved = resolveUrl(href, pageUrl);
    if (resolved) return resolved;
  }
  return pageUrl;
}

const URL_ATTRS = ['href', 'src', 'poster', 'cite', 'action', 'longdesc'];
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url', 'data-hi-res-src', 'data-full-src'];
const LAZY_SRCSET = ['data-srcset', 'data-lazy-srcset'];
const PLACEHOLDER_SRC = /^data:|placeholder|blank\.(gif|png)|spacer|lazy|transparent|1x1|pixel\.(gif|png)/i;

/** Rewrites one `srcset` value with absolute URLs. */
export function absolutizeSrcset(srcset: string, base: string | undefined): string {
  return srcset
    .split(/,\s+(?=\S)/)
    .map((part) => {
      const [url, ...descriptor] = part.trim().split(/\s+/);
      if (!url) return '';
      const abs = url.startsWith('data:') ? url : (resolveUrl(url, base) ?? url);
      return [abs, ...descriptor].join(' ');
    })
    .filter(Boolean)
    .join(', ');
}

/** The largest candidate of a `srcset` (by width or density descriptor), or the first one. */
export function bestSrcsetCandidate(srcset: string): string | undefined {
  let best: string | undefined;
  let bestSize = -1;
  for (const part of srcset.split(/,\s+(?=\S)/)) {
    const [url, descriptor] = part.trim().split(/\s+/);
    if (!url) continue;
    const size = descriptor ? parseFloat(descriptor) || 0 : 1;
    if (size > bestSize) {
      best = url;
      bestSize = size;
    }
  }
  return best;
}

/** Uses lazy-loading attributes when `src` is missing or a placeholder; fills `src` from `srcset`. */
function promoteLazyImage(el: Element): void {
  const a = el.attribs;
  const src = a.src?.trim();
  if (!src || PLACEHOLDER_SRC.test(src)) {
    for (const name of LAZY_SRC) {
      const v = a[name]?.trim();
      if (v && !v.startsWith('data:')) {
        a.src = v;
        break;
      }
    }
  }
  if (!a.srcset) {
    for (const name of LAZY_SRCSET) if (a[name]) a.srcset = a[name];
  }
  if ((!a.src || PLACEHOLDER_SRC.test(a.src)) && a.srcset && el.name === 'img') {
    const best = bestSrcsetCandidate(a.srcset);
    if (best) a.src = best;
  }
}

/** The attributes holding one URL, made absolute. */
const URL_ATTR_SET = new Set(URL_ATTRS);

/** Whether `t` starts with `javascript:` (any case). */
const isJavascript = (t: string) => (t.charCodeAt(0) | 32) === 106 && /^javascript:/i.test(t);

/** A URL left as written: empty, a data URL, or a mailto/tel/sms/about link. */
const isKept = (t: string) => t === '' || t.startsWith('data:') || /^(mailto|tel|sms|about):/i.test(t);

/**
 * Makes every URL attribute under `root` absolute against `base` and promotes lazy image sources.
 * `javascript:` hrefs are removed. Data URLs are kept (the markdown format replaces base64 images).
 * Without a usable base (undefined or '', e.g. an uploaded file or raw HTML), relative URLs are left as
 * written; nothing throws.
 */
export function absolutizeUrls(root: ParentNode, base: string | undefined): void {
  // The base parsed once, and each distinct URL resolved once per page (pages repeat their links).
  let parsedBase: URL | string | undefined = base;
  try {
    if (base !== undefined) parsedBase = new URL(base);
  } catch {
    // Resolved against the string below, which fails the same way.
  }
  const resolved = new Map<string, string | undefined>();
  for (const el of elementList(root)) {
    if (el.name === 'img' || el.name === 'source') promoteLazyImage(el);
    const a = el.attribs;
    // One pass over the element's attributes (most have none or a few) instead of a look-up per
    // URL attribute name; each attribute is rewritten on its own, so the order does not matter.
    for (const name in a) {
      if (!URL_ATTR_SET.has(name)) continue;
      const t = a[name].trim();
      if (isJavascript(t)) {
        delete a[name];
        continue;
      }
      if (isKept(t)) continue;
      let abs = resolved.get(t);
      if (abs === undefined && !resolved.has(t)) {
        abs = resolveUrl(t, parsedBase);
        resolved.set(t, abs);
      }
      if (abs) a[name] = abs;
    }
    if (a.srcset) a.srcset = absolutizeSrcset(a.srcset, base);
  }
}
