/**
 * A fake of the Serper API (https://google.serper.dev) following its documented shapes:
 * `POST /search`, `/news`, `/images` with a JSON body `{ q, num, page, gl, hl, location, tbs }` and the
 * `X-API-KEY` header; answers `{ searchParameters, organic | news | images, credits }`; errors
 * `{ message, statusCode }` (403 Unauthorized, 400 bad body, 429 rate limit). Test-only.
 */
import { matchCorpus } from './corpus.ts';
import { json, startFake, type Fake } from './server.ts';

export const SERPER_KEY = 'serper-test-key';

const error = (statusCode: number, message: string) => json({ message, statusCode }, statusCode);

export function startFakeSerper(): Fake {
  return startFake(
    (req) => {
      const type = ({ '/search': 'search', '/news': 'news', '/images': 'images' } as Record<string, string>)[req.path];
      if (!type || req.method !== 'POST') return error(404, 'Not found');
      if (req.headers.get('x-api-key') !== SERPER_KEY) return error(403, 'Unauthorized.');
      const b = req.body as { q?: string; num?: number; page?: number; gl?: string; hl?: string; tbs?: string; location?: string };
      if (!b || typeof b !== 'object' || !b.q) return error(400, 'Missing query parameter');
      const num = b.num ?? 10;
      if (num < 1 || num > 100) return error(400, 'num must be between 1 and 100');
      const docs = matchCorpus(b.q).slice(0, num);
      const searchParameters = { q: b.q, gl: b.gl ?? 'us', hl: b.hl ?? 'en', type, num, engine: 'google', ...(b.tbs ? { tbs: b.tbs } : {}) };
      if (type === 'search') {
        return json({
          searchParameters,
          organic: docs.map((d, i) => ({ title: d.title, link: d.url, snippet: d.description, position: i + 1, ...(d.date ? { date: 'Nov 19, 2026' } : {}) })),
          relatedSearches: [{ query: `${b.q} today` }],
          credits: 1,
        });
      }
      if (type === 'news') {
        return json({
          searchParameters,
          news: docs.filter((d) => d.date).map((d, i) => ({ title: d.title, link: d.url, snippet: d.description, date: '2 days ago', source: new URL(d.url).hostname, imageUrl: d.image?.url, position: i + 1 })),
          credits: 1,
        });
      }
      return json({
        searchParameters,
        images: docs.filter((d) => d.image).map((d, i) => ({
          title: d.title, imageUrl: d.image!.url, imageWidth: d.image!.width, imageHeight: d.image!.height,
          thumbnailUrl: `${d.image!.url}?thumb`, thumbnailWidth: 200, thumbnailHeight: 150, source: new URL(d.url).hostname,
          domain: new URL(d.url).hostname, link: d.url, googleUrl: `https://www.google.com/imgres?imgurl=${encodeURIComponent(d.image!.url)}`, position: i + 1,
        })),
        credits: 1,
      });
    },
    (mode) =>
      mode === 'unauthorized' ? error(403, 'Unauthorized.') : mode === 'rate-limited' ? error(429, 'Too many requests') : error(500, 'Internal server error'),
  );
}
