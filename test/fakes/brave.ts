/**
 * A fake of the Brave Search API (https://api.search.brave.com/res/v1) following its documented
 * shapes: `GET /res/v1/{web,news,images}/search` with the `X-Subscription-Token` header; web answers
 * `{ type: "search", query, web: { type: "search", results: [...] } }`, news and images
 * `{ type, query, results }`; errors `{ type: "ErrorResponse", error: { id, status, code, detail,
 * meta }, time }` (401 SUBSCRIPTION_TOKEN_INVALID, 422 VALIDATION, 429 RATE_LIMITED). Test-only.
 */
import { CORPUS, matchCorpus, strong } from './corpus.ts';
import { json, startFake, type Fake } from './server.ts';

export const BRAVE_KEY = 'brave-test-key';

function error(status: number, code: string, detail: string): Response {
  return json({ type: 'ErrorResponse', error: { id: crypto.randomUUID(), status, code, detail, meta: {} }, time: Math.floor(Date.now() / 1000) }, status);
}

const MAX_COUNT: Record<string, number> = { web: 20, news: 50, images: 200 };

export function startFakeBrave(): Fake {
  return startFake(
    (req) => {
      const m = /^\/res\/v1\/(web|news|images)\/search$/.exec(req.path);
      if (!m) return error(404, 'RESOURCE_NOT_FOUND', 'Resource not found.');
      if (req.headers.get('x-subscription-token') !== BRAVE_KEY) return error(401, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.');
      const kind = m[1];
      const q = req.query.get('q') ?? '';
      if (!q) return error(422, 'VALIDATION', 'Unable to validate request parameter(s): q is required.');
      const count = Number(req.query.get('count') ?? (kind === 'web' ? 20 : 20));
      const offset = Number(req.query.get('offset') ?? 0);
      if (!(count >= 1 && count <= MAX_COUNT[kind]) || !(offset >= 0 && offset <= 9)) {
        return error(422, 'VALIDATION', 'Unable to validate request parameter(s): count or offset out of range.');
      }
      let docs = matchCorpus(q);
      const freshness = req.query.get('freshness');
      if (freshness) {
        const days = { pd: 1, pw: 7, pm: 31, py: 365 }[freshness];
        const now = Date.parse('2026-11-21T12:00:00Z');
        docs = docs.filter((d) => d.date && (days ? now - Date.parse(d.date) <= days * 86_400_000 : true));
      }
      const page = kind === 'images' ? docs : docs.slice(offset * count, offset * count + count);
      const query = { original: q, more_results_available: docs.length > (offset + 1) * count };
      if (kind === 'web') {
        return json({
          type: 'search',
          query,
          mixed: { type: 'mixed', main: page.map((_, index) => ({ type: 'web', index, all: false })) },
          web: {
            type: 'search',
            family_friendly: true,
            results: page.map((d) => ({
              type: 'search_result',
              title: d.title,
              url: d.url,
              is_source_local: false,
              description: strong(d.description, q),
              page_age: d.date,
              age: d.date ? 'November 19, 2026' : undefined,
              language: 'en',
              family_friendly: true,
              meta_url: { scheme: 'https', netloc: new URL(d.url).host, hostname: new URL(d.url).hostname, path: new URL(d.url).pathname },
              ...(req.query.get('extra_snippets') === 'true' ? { extra_snippets: [`Extra: ${d.title} in detail.`, `More about ${q} at ${new URL(d.url).hostname}.`] } : {}),
            })),
          },
        });
      }
      if (kind === 'news') {
        return json({
          type: 'news',
          query,
          results: page.filter((d) => d.date).map((d) => ({
            type: 'news_result', title: d.title, url: d.url, description: strong(d.description, q), age: '2 days ago', page_age: d.date,
            meta_url: { hostname: new URL(d.url).hostname }, thumbnail: d.image ? { src: d.image.url } : undefined,
          })),
        });
      }
      return json({
        type: 'images',
        query,
        results: page.slice(0, count).filter((d) => d.image).map((d) => ({
          type: 'image_result', title: d.title, url: d.url, source: new URL(d.url).hostname, page_fetched: d.date,
          thumbnail: { src: `${d.image!.url}?thumb` }, properties: { url: d.image!.url, placeholder: `${d.image!.url}?ph`, width: d.image!.width, height: d.image!.height },
          meta_url: { hostname: new URL(d.url).hostname },
        })),
      });
    },
    (mode) =>
      mode === 'unauthorized'
        ? error(401, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.')
        : mode === 'rate-limited'
          ? error(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.')
          : error(500, 'INTERNAL_ERROR', 'An internal error occurred.'),
  );
}

export { CORPUS };
