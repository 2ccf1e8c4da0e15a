/**
 * Page metadata from an HTML document (compat.md §3 "Document", metadata groups Page, Open Graph,
 * Dublin Core and Article): `<title>`, `<html lang>`, the favicon, and every
 * `<meta name|property|itemprop content>`. Well-known tags get their camelCase key (`og:title` ->
 * `ogTitle`, `dc.date.created` -> `dcDateCreated`, `article:published_time` -> `publishedTime`); any other
 * tag keeps its own name as key. A key seen twice becomes a string[] (so `title` may be an array when
 * a `<meta name="title">` exists too); `ogLocaleAlternate` is always an array.
 */
import { elements, normalizeSpace, textOf, type Document } from './dom.ts';
import { baseUrlOf, resolveUrl } from './urls.ts';

export type PageMetadata = Record<string, string | string[]>;

const WELL_KNOWN: Record<string, string> = {
  description: 'description',
  keywords: 'keywords',
  robots: 'robots',
  'og:title': 'ogTitle',
  'og:description': 'ogDescription',
  'og:url': 'ogUrl',
  'og:image': 'ogImage',
  'og:audio': 'ogAudio',
  'og:determiner': 'ogDeterminer',
  'og:locale': 'ogLocale',
  'og:locale:alternate': 'ogLocaleAlternate',
  'og:site_name': 'ogSiteName',
  'og:video': 'ogVideo',
  'article:modified_time': 'modifiedTime',
  'article:published_time': 'publishedTime',
  'article:tag': 'articleTag',
  'article:section': 'articleSection',
};

/** `dc.date.created` -> `dcDateCreated`, `dcterms.subject` -> `dcTermsSubject`; undefined for other names. */
function dublinCoreKey(name: string): string | undefined {
  const m = /^(dc|dcterms)[.:](.+)$/i.exec(name);
  if (!m) return undefined;
  const prefix = m[1].toLowerCase() === 'dc' ? 'dc' : 'dcTerms';
  const rest = m[2]
    .split(/[.:_-]/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1).toLowerCase())
    .join('');
  return rest ? prefix + rest : undefined;
}

/** Maps a meta name/property/itemprop to its metadata key. */
export function metaKey(name: string): string {
  const lower = name.trim().toLowerCase();
  return WELL_KNOWN[lower] ?? dublinCoreKey(lower) ?? name.trim();
}

function add(meta: PageMetadata, key: string, value: string): void {
  const prev = meta[key];
  if (prev === undefined) meta[key] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else meta[key] = [prev, value];
}

/**
 * Extracts metadata from a parsed document.
 * @param doc parsed page
 * @param pageUrl final URL of the page, used to make the favicon absolute (respects `<base href>`)
 * @returns keys of compat.md §3 plus every other meta tag under its own name; absent values are omitted
 */
export function extractMetadata(doc: Document, pageUrl: string): PageMetadata {
  const meta: PageMetadata = {};
  const base = baseUrlOf(doc, pageUrl);
  let favicon: string | undefined;
  let faviconRank = 99;
  let pageTitle: string | undefined;
  for (const el of elements(doc)) {
    const a = el.attribs;
    if (el.name === 'title') {
      // <title> inside <svg> is not the page title.
      if (pageTitle === undefined && !isInSvg(el)) {
        const t = normalizeSpace(textOf(el));
        if (t) pageTitle = t;
      }
    } else if (el.name === 'html') {
      if (a.lang && meta.language === undefined) meta.language = a.lang.trim();
    } else if (el.name === 'link' && a.href && a.rel) {
      const rel = a.rel.toLowerCase().split(/\s+/);
      const rank = rel.includes('icon') ? 0 : rel.includes('apple-touch-icon') ? 1 : 99;
      if (rank < faviconRank) {
        const abs = resolveUrl(a.href, base);
        if (abs) {
          favicon = abs;
          faviconRank = rank;
        }
      }
    } else if (el.name === 'meta') {
      const name = a.name ?? a.property ?? a.itemprop;
      const content = a.content;
      if (!name || content === undefined) {
        if (a['http-equiv']?.toLowerCase() === 'content-language' && content && meta.language === undefined) {
          meta.language = content.trim();
        }
        continue;
      }
      const value = content.trim();
      add(meta, metaKey(name), value);
    }
  }
  if (favicon) meta.favicon = favicon;
  const alt = meta.ogLocaleAlternate;
  if (typeof alt === 'string') meta.ogLocaleAlternate = [alt];
  if (pageTitle === undefined) return meta;
  const metaTitle = meta.title;
  const title = metaTitle === undefined ? pageTitle : [pageTitle, ...(Array.isArray(metaTitle) ? metaTitle : [metaTitle])];
  const { title: _metaTitle, ...rest } = meta;
  return { title, ...rest };
}

function isInSvg(el: { parent: unknown }): boolean {
  for (let p = el.parent as { name?: string; parent: unknown } | null; p; p = p.parent as never) {
    if (p.name === 'svg') return true;
  }
  return false;
}
