/**
 * Google Programmable Search (Custom Search JSON API) provider (`GOOGLE_CSE_KEY` + `GOOGLE_CSE_ID`;
 * base `GOOGLE_CSE_URL`, default https://www.googleapis.com/customsearch/v1). Web and images only
 * (the API has no news search: the core asks the next provider). At most 10 results per request,
 * `start` is 1-based and the API serves the first 100 results. `tbs` maps to `dateRestrict`
 * (d/w/m/y[n]; hours round up to a day) or `sort=date:r:<from>:<to>`; `sbd:1` to `sort=date`.
 * With `highlights: false` the page's own meta description replaces Google's snippet. A `location`
 * sets `gl` to its country and `hl`/`lr` to that country's language unless `lang` is given.
 */
import { defineSearchProvider, type SearchHit, type SearchQuery } from '../../core/plugin.ts';
import { providerJson } from '../../core/search/provider-http.ts';
import { parseTbs } from '../../core/search/tbs.ts';
import { htmlToText, parseDate } from '../../core/search/text.ts';
import { searchLocale } from './location.ts';

interface CseItem {
  title?: string;
  link?: string;
  snippet?: string;
  pagemap?: { metatags?: Record<string, string>[] };
  image?: { contextLink?: string; width?: number; height?: number };
}

function dateParams(q: SearchQuery, url: URL): void {
  const f = parseTbs(q.tbs);
  if (!f) return;
  const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
  if (f.qdr) url.searchParams.set('dateRestrict', f.qdr.unit === 'h' ? 'd1' : `${f.qdr.unit}${f.qdr.n}`);
  if (f.from || f.to) url.searchParams.set('sort', `date:r:${f.from ? ymd(f.from) : '19700101'}:${ymd(f.to ?? new Date())}`);
  else if (f.sortByDate) url.searchParams.set('sort', 'date');
}

/** Google's error body: `{ error: { code, message, status, errors: [{ reason }] } }`. */
function errorMessage(b: any): string | undefined {
  const e = b?.error;
  return e ? [e.status, e.message].filter(Boolean).join(': ') : undefined;
}

export default defineSearchProvider({
  name: 'google',
  sources: ['web', 'images'],
  configured: (config) => Boolean(config.search.google?.key && config.search.google?.cx),
  async search(q, ctx) {
    const cfg = ctx.config.search.google!;
    const hits: SearchHit[] = [];
    for (let start = 1; start <= 91 && hits.length < q.limit; start += 10) {
      const num = Math.min(10, q.limit - hits.length);
      const url = new URL(cfg.url);
      url.searchParams.set('key', cfg.key);
      url.searchParams.set('cx', cfg.cx);
      url.searchParams.set('q', q.query);
      url.searchParams.set('num', String(num));
      url.searchParams.set('start', String(start));
      url.searchParams.set('safe', q.safe ? 'active' : 'off');
      // Programmable Search has no place parameter: `location` gives the country (gl) and its language.
      const { country, lang } = searchLocale(q);
      if (country) url.searchParams.set('gl', country.toLowerCase());
      if (lang) {
        url.searchParams.set('hl', lang);
        url.searchParams.set('lr', `lang_${lang.split(/[-_]/)[0].toLowerCase()}`);
      }
      if (q.source === 'images') url.searchParams.set('searchType', 'image');
      dateParams(q, url);
      const body = await providerJson<{ items?: CseItem[] }>('google', url.href, { errorMessage }, ctx);
      const items = body.items ?? [];
      for (const it of items) {
        if (!it.link) continue;
        const meta = it.pagemap?.metatags?.[0] ?? {};
        const snippet = htmlToText(it.snippet);
        const plain = htmlToText(meta['og:description'] ?? meta.description ?? meta['twitter:description']) || snippet;
        if (q.source === 'images') {
          hits.push({
            url: it.image?.contextLink ?? it.link,
            title: htmlToText(it.title) || it.link,
            description: snippet,
            imageUrl: it.link,
            imageWidth: it.image?.width,
            imageHeight: it.image?.height,
          });
          continue;
        }
        const hit: SearchHit = { url: it.link, title: htmlToText(it.title) || it.link, description: q.highlights === false ? plain : snippet };
        const published = parseDate(meta['article:published_time'] ?? meta.date);
        if (published) hit.publishedAt = published.toISOString();
        hits.push(hit);
      }
      if (items.length < num) break;
    }
    return hits.slice(0, q.limit);
  },
});
