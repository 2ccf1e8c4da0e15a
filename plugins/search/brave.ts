/**
 * Brave Search API provider (`BRAVE_API_KEY`; base `BRAVE_API_URL`, default
 * https://api.search.brave.com/res/v1): `/web/search` (count ≤ 20 per page, offset = page number ≤ 9),
 * `/news/search` (count ≤ 50) and `/images/search` (count ≤ 200, one page). `tbs` periods become
 * `freshness` (pd/pw/pm/py or a `YYYY-MM-DDtoYYYY-MM-DD` range), `safe` becomes `safesearch=strict`.
 * Descriptions carry `<strong>` markup, removed here; with highlights the most query-relevant of the
 * description and its `extra_snippets` is used. A `location` sets `country`, the default `search_lang`
 * and the `X-Loc-Country`/`X-Loc-City` headers (plugins/search/location.ts).
 */
import { defineSearchProvider, type SearchHit, type SearchQuery } from '../../core/plugin.ts';
import { providerJson } from '../../core/search/provider-http.ts';
import { coarsePeriod, isoDay, parseTbs } from '../../core/search/tbs.ts';
import { bestSnippet, htmlToText, parseDate } from '../../core/search/text.ts';
import { locationCountry, locationPlace, searchLocale } from './location.ts';

interface BraveResult {
  title?: string;
  url?: string;
  description?: string;
  age?: string;
  page_age?: string;
  extra_snippets?: string[];
  thumbnail?: { src?: string; width?: number; height?: number };
  properties?: { url?: string; width?: number; height?: number };
}

const PAGE_SIZE = { web: 20, news: 50, images: 200 } as const;
const PATH = { web: 'web/search', news: 'news/search', images: 'images/search' } as const;

function freshness(q: SearchQuery): string | undefined {
  if (q.source !== 'web') return undefined;
  const f = parseTbs(q.tbs);
  if (!f) return undefined;
  if (f.from || f.to) return `${isoDay(f.from ?? new Date(Date.UTC(1970, 0, 1)))}to${isoDay(f.to ?? new Date())}`;
  const period = coarsePeriod(f);
  return period ? ({ day: 'pd', week: 'pw', month: 'pm', year: 'py' } as const)[period] : undefined;
}

/** Brave's error body: `{ type: "ErrorResponse", error: { code, detail, status } }`. */
function errorMessage(b: any): string | undefined {
  const e = b?.error;
  return e ? [e.code, e.detail].filter(Boolean).join(': ') : undefined;
}

/**
 * Brave's client-location headers for a search `location` (its Web Search API request headers):
 * `X-Loc-Country` (ISO code) and `X-Loc-City` (the first part of a "City,Region,Country" place).
 */
function locationHeaders(q: SearchQuery): Record<string, string> {
  const headers: Record<string, string> = {};
  const country = locationCountry(q.location);
  const city = locationPlace(q.location);
  if (country) headers['X-Loc-Country'] = country;
  if (city) headers['X-Loc-City'] = city;
  return headers;
}

export default defineSearchProvider({
  name: 'brave',
  configured: (config) => Boolean(config.search.brave?.apiKey),
  async search(q, ctx) {
    const cfg = ctx.config.search.brave!;
    const hits: SearchHit[] = [];
    const pageSize = Math.min(PAGE_SIZE[q.source], q.limit);
    const pages = q.source === 'images' ? 1 : Math.min(10, Math.ceil(q.limit / pageSize));
    for (let page = 0; page < pages && hits.length < q.limit; page++) {
      const url = new URL(`${cfg.url.replace(/\/+$/, '')}/${PATH[q.source]}`);
      url.searchParams.set('q', q.query);
      url.searchParams.set('count', String(pageSize));
      if (q.source !== 'images') url.searchParams.set('offset', String(page));
      const { country, lang } = searchLocale(q);
      if (country) url.searchParams.set('country', country);
      if (lang) url.searchParams.set('search_lang', lang.split(/[-_]/)[0].toLowerCase());
      url.searchParams.set('safesearch', q.safe ? 'strict' : 'off');
      const fresh = freshness(q);
      if (fresh) url.searchParams.set('freshness', fresh);
      if (q.source === 'web' && q.highlights !== false) url.searchParams.set('extra_snippets', 'true');
      const body = await providerJson<{ web?: { results?: BraveResult[] }; results?: BraveResult[] }>(
        'brave',
        url.href,
        { headers: { 'X-Subscription-Token': cfg.apiKey, 'Accept-Encoding': 'gzip', ...locationHeaders(q) }, errorMessage },
        ctx,
      );
      const results = (q.source === 'web' ? body.web?.results : body.results) ?? [];
      for (const r of results) {
        if (!r.url) continue;
        const plain = htmlToText(r.description);
        const description = q.highlights !== false && r.extra_snippets?.length
          ? bestSnippet([plain, ...r.extra_snippets.map(htmlToText)], q.query)
          : plain;
        const hit: SearchHit = { url: r.url, title: htmlToText(r.title) || r.url, description };
        const published = parseDate(r.page_age);
        if (published) hit.publishedAt = published.toISOString();
        if (q.source === 'news') {
          hit.date = r.age ?? published?.toISOString();
          if (r.thumbnail?.src) hit.imageUrl = r.thumbnail.src;
        }
        if (q.source === 'images') {
          const src = r.properties?.url ?? r.thumbnail?.src;
          if (!src) continue;
          Object.assign(hit, { imageUrl: src, imageWidth: r.properties?.width ?? r.thumbnail?.width, imageHeight: r.properties?.height ?? r.thumbnail?.height });
        }
        hits.push(hit);
      }
      if (results.length < pageSize) break;
    }
    return hits.slice(0, q.limit);
  },
});
