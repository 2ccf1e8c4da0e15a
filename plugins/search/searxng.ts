/**
 * SearXNG (and searx) search provider: the JSON API of a self-hosted metasearch instance
 * (`GET <SEARXNG_URL>/search?q=&format=json`). The instance must list `json` in `search.formats` of
 * its settings.yml. Categories map to sources (general/news/images), `tbs` periods to `time_range`
 * (custom ranges are filtered by the core on known dates), `safe` to `safesearch=2`. Pages are read
 * until `limit` results are collected or a page brings nothing new. A `location` sets `language` to
 * its country's locale (`de-DE`) unless `lang` is given; SearXNG has no place parameter.
 */
import { defineSearchProvider, type SearchHit } from '../../core/plugin.ts';
import { providerJson } from '../../core/search/provider-http.ts';
import { coarsePeriod, parseTbs } from '../../core/search/tbs.ts';
import { htmlToText, parseDate } from '../../core/search/text.ts';
import { searchLocale } from './location.ts';

interface SearxResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
  pubdate?: string;
  img_src?: string;
  thumbnail_src?: string;
  resolution?: string;
  img_format?: string;
}

const CATEGORY = { web: 'general', news: 'news', images: 'images' } as const;
const MAX_PAGES = 5;

function size(r: SearxResult): { width?: number; height?: number } {
  const m = /(\d{1,5})\s*[x×]\s*(\d{1,5})/.exec(r.resolution ?? r.img_format ?? '');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : {};
}

export default defineSearchProvider({
  name: 'searxng',
  configured: (config) => Boolean(config.search.searxngUrl),
  async search(q, ctx) {
    const base = ctx.config.search.searxngUrl!.replace(/\/+$/, '');
    const period = q.source === 'web' ? coarsePeriod(parseTbs(q.tbs)) : undefined;
    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES && hits.length < q.limit; page++) {
      const url = new URL(`${base}/search`);
      url.searchParams.set('q', q.query);
      url.searchParams.set('format', 'json');
      url.searchParams.set('categories', CATEGORY[q.source]);
      url.searchParams.set('pageno', String(page));
      url.searchParams.set('safesearch', q.safe ? '2' : '0');
      // SearXNG has no place parameter: `location` gives its country's language (plugins/search/location.ts).
      const { country, lang } = searchLocale(q);
      if (lang) url.searchParams.set('language', lang.includes('-') || !country ? lang : `${lang}-${country}`);
      if (period) url.searchParams.set('time_range', period);
      const body = await providerJson<{ results?: SearxResult[] }>('searxng', url.href, {
        errorMessage: (b) => b?.error,
      }, ctx).catch((e) => {
        if (String(e.message).includes('HTTP 403')) {
          e.message += ' (is "json" listed in search.formats of the instance\'s settings.yml?)';
        }
        throw e;
      });
      let added = 0;
      for (const r of body.results ?? []) {
        if (!r.url || seen.has(r.url)) continue;
        seen.add(r.url);
        added++;
        const published = parseDate(r.pubdate ?? r.publishedDate ?? undefined);
        const hit: SearchHit = { url: r.url, title: htmlToText(r.title) || r.url, description: htmlToText(r.content) };
        if (published) {
          hit.publishedAt = published.toISOString();
          if (q.source === 'news') hit.date = r.publishedDate ?? published.toISOString();
        }
        if (q.source === 'images') {
          if (!r.img_src) continue;
          const { width, height } = size(r);
          Object.assign(hit, { imageUrl: r.img_src, imageWidth: width, imageHeight: height });
        }
        hits.push(hit);
      }
      if (added === 0) break;
    }
    ctx.log.debug({ results: hits.length }, 'searxng answered');
    return hits.slice(0, q.limit);
  },
});
