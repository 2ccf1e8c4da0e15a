/**
 * Serper (Google results) provider (`SERPER_API_KEY`; base `SERPER_API_URL`, default
 * https://google.serper.dev): `POST /search`, `/news`, `/images` with `{ q, num, page, gl, hl,
 * location, tbs }` and the `X-API-KEY` header. `tbs` is Google's own syntax, so it passes through.
 * Serper has no safe-search parameter; `safe` is not applied by this provider.
 */
import { defineSearchProvider, type SearchHit } from '../../core/plugin.ts';
import { providerJson } from '../../core/search/provider-http.ts';
import { htmlToText, parseDate } from '../../core/search/text.ts';

interface SerperItem {
  title?: string;
  link?: string;
  snippet?: string;
  date?: string;
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
}

const PATH = { web: 'search', news: 'news', images: 'images' } as const;
const LIST = { web: 'organic', news: 'news', images: 'images' } as const;

export default defineSearchProvider({
  name: 'serper',
  configured: (config) => Boolean(config.search.serper?.apiKey),
  async search(q, ctx) {
    const cfg = ctx.config.search.serper!;
    const body: Record<string, unknown> = { q: q.query, num: Math.min(100, Math.ceil(q.limit / 10) * 10) };
    if (q.country) body.gl = q.country.toLowerCase();
    if (q.lang) body.hl = q.lang.toLowerCase();
    if (q.location) body.location = q.location;
    if (q.tbs) body.tbs = q.tbs;
    const res = await providerJson<Record<string, SerperItem[] | undefined>>(
      'serper',
      `${cfg.url.replace(/\/+$/, '')}/${PATH[q.source]}`,
      { method: 'POST', headers: { 'X-API-KEY': cfg.apiKey }, body, errorMessage: (b) => b?.message },
      ctx,
    );
    const hits: SearchHit[] = [];
    for (const r of res[LIST[q.source]] ?? []) {
      if (!r.link) continue;
      const hit: SearchHit = { url: r.link, title: htmlToText(r.title) || r.link, description: htmlToText(r.snippet) };
      const published = parseDate(r.date);
      if (published) hit.publishedAt = published.toISOString();
      if (q.source === 'news') {
        if (r.date) hit.date = r.date;
        if (r.imageUrl) hit.imageUrl = r.imageUrl;
      }
      if (q.source === 'images') {
        if (!r.imageUrl) continue;
        Object.assign(hit, { imageUrl: r.imageUrl, imageWidth: r.imageWidth, imageHeight: r.imageHeight });
      }
      hits.push(hit);
    }
    return hits.slice(0, q.limit);
  },
});
