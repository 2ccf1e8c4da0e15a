/**
 * A fake of the Google Custom Search JSON API (https://www.googleapis.com/customsearch/v1) following
 * its documented shapes: `GET /customsearch/v1?key=&cx=&q=&num=&start=` (num 1..10, start + num ≤ 101,
 * `searchType=image`); answers `{ kind: "customsearch#search", queries, searchInformation, items? }`
 * (no `items` when nothing matches); errors `{ error: { code, message, errors: [{ message, domain,
 * reason }], status } }` (400 INVALID_ARGUMENT, 403 PERMISSION_DENIED, 429 RESOURCE_EXHAUSTED). Test-only.
 */
import { matchCorpus } from './corpus.ts';
import { json, startFake, type Fake } from './server.ts';

export const GOOGLE_KEY = 'google-test-key';
export const GOOGLE_CX = 'test-engine-id';

function error(code: number, status: string, message: string, reason: string): Response {
  return json({ error: { code, message, errors: [{ message, domain: 'global', reason }], status } }, code);
}

export function startFakeGoogle(): Fake {
  return startFake(
    (req) => {
      if (req.path !== '/customsearch/v1') return error(404, 'NOT_FOUND', 'Not Found', 'notFound');
      const p = req.query;
      if (p.get('key') !== GOOGLE_KEY) return error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'badRequest');
      if (p.get('cx') !== GOOGLE_CX) return error(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', 'badRequest');
      const q = p.get('q');
      if (!q) return error(400, 'INVALID_ARGUMENT', 'Required parameter: q', 'required');
      const num = Number(p.get('num') ?? 10);
      const start = Number(p.get('start') ?? 1);
      if (!(num >= 1 && num <= 10)) return error(400, 'INVALID_ARGUMENT', 'Invalid Value', 'invalid');
      if (!(start >= 1 && start + num <= 101)) return error(400, 'INVALID_ARGUMENT', 'Invalid Value', 'invalid');
      const image = p.get('searchType') === 'image';
      const all = matchCorpus(q).filter((d) => !image || d.image);
      const page = all.slice(start - 1, start - 1 + num);
      const request = { title: `Google Custom Search - ${q}`, totalResults: String(all.length), searchTerms: q, count: page.length, startIndex: start, inputEncoding: 'utf8', outputEncoding: 'utf8', safe: p.get('safe') ?? 'off', cx: GOOGLE_CX };
      const body: Record<string, unknown> = {
        kind: 'customsearch#search',
        url: { type: 'application/json', template: 'https://www.googleapis.com/customsearch/v1?q={searchTerms}&num={count?}&start={startIndex?}&cx={cx?}&key={key?}' },
        queries: { request: [request], ...(start + num <= all.length ? { nextPage: [{ ...request, startIndex: start + num }] } : {}) },
        context: { title: 'Test engine' },
        searchInformation: { searchTime: 0.21, formattedSearchTime: '0.21', totalResults: String(all.length), formattedTotalResults: String(all.length) },
      };
      if (page.length) {
        body.items = page.map((d) =>
          image
            ? {
                kind: 'customsearch#result', title: d.title, htmlTitle: d.title, link: d.image!.url, displayLink: new URL(d.url).hostname,
                snippet: d.title, htmlSnippet: d.title, mime: 'image/jpeg', fileFormat: 'image/jpeg',
                image: { contextLink: d.url, height: d.image!.height, width: d.image!.width, byteSize: 12345, thumbnailLink: `${d.image!.url}?thumb`, thumbnailHeight: 100, thumbnailWidth: 150 },
              }
            : {
                kind: 'customsearch#result', title: d.title, htmlTitle: d.title.replace(/(tide)/gi, '<b>$1</b>'), link: d.url,
                displayLink: new URL(d.url).hostname, snippet: `Nov 19, 2026 ... ${d.description}`, htmlSnippet: `Nov 19, 2026 <b>...</b> ${d.description}`,
                formattedUrl: d.url, htmlFormattedUrl: d.url,
                pagemap: { metatags: [{ 'og:description': `Meta: ${d.description}`, 'og:title': d.title, ...(d.date ? { 'article:published_time': d.date } : {}) }] },
              },
        );
      }
      return json(body);
    },
    (mode) =>
      mode === 'unauthorized'
        ? error(403, 'PERMISSION_DENIED', 'This project does not have the access to Custom Search JSON API.', 'forbidden')
        : mode === 'rate-limited'
          ? error(429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Queries' and limit 'Queries per day'.", 'rateLimitExceeded')
          : error(500, 'INTERNAL', 'Internal error encountered.', 'backendError'),
  );
}
