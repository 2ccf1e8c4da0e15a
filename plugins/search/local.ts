/**
 * The local index provider: full-text search over the pages this instance has scraped and crawled
 * (core/search/local-index.ts). Always configured, so search works with no configuration and
 * offline; it is the last provider of the default order. Reads the operators the core adds (site:,
 * -site:, filetype:, imagesize:) from the query, applies `tbs` to publication dates, `lang` to page
 * languages and `safe` to pages marked adult. A `location` naming a country without `lang` keeps pages
 * in that country's language (and pages of unknown language), like `lang` would; `country` alone does
 * not apply. It reads only the pages of the teams the search may see (`ctx.indexTeams`;
 * core/search/visibility.ts).
 */
import { defineSearchProvider, type SearchHit } from '../../core/plugin.ts';
import { searchPages } from '../../core/search/local-index.ts';
import { parseQuery } from '../../core/search/operators.ts';
import { parseTbs, timeBounds } from '../../core/search/tbs.ts';
import { clip, relativeDate } from '../../core/search/text.ts';
import { searchLocale } from './location.ts';

export default defineSearchProvider({
  name: 'local',
  configured: () => true,
  async search(q, ctx) {
    const filter = q.source === 'web' ? parseTbs(q.tbs) : undefined;
    const { from, to } = timeBounds(filter);
    const hits = await searchPages(ctx.db, {
      teams: ctx.indexTeams ?? [],
      parsed: parseQuery(q.query),
      source: q.source,
      limit: q.limit,
      from,
      to,
      sortByDate: filter?.sortByDate,
      lang: searchLocale(q).lang,
      safe: q.safe,
      highlights: q.highlights !== false,
    });
    return hits.map((h): SearchHit => {
      const headline = h.headline?.replace(/\s+/g, ' ').trim();
      const hit: SearchHit = {
        url: h.url,
        title: h.title,
        description: clip((q.highlights !== false && headline ? headline : h.description) || headline || '', 400),
      };
      const published = h.publishedAt ? new Date(h.publishedAt) : undefined;
      if (published) hit.publishedAt = published.toISOString();
      if (q.source === 'news') hit.date = relativeDate(published ?? new Date(h.updatedAt));
      if (h.imageUrl) {
        hit.imageUrl = h.imageUrl;
        if (h.imageWidth) hit.imageWidth = h.imageWidth;
        if (h.imageHeight) hit.imageHeight = h.imageHeight;
      }
      return hit;
    });
  },
});
