/**
 * The research paper endpoints (compat.md §11.2; endpoint group `research`):
 * `GET /v2/search/research/papers` (search), `…/papers/{id}` (metadata, or passages with `query`),
 * `…/papers/{id}/similar` (related papers). Their errors are problem details `{type, title, detail,
 * status}` (the SDK shows `detail`), so these handlers read their query parameters themselves and
 * turn every TrawlError into that shape instead of the usual envelope.
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { admit } from '../guard.ts';
import { ProblemDetails, PaperResultModel } from '../models/search.ts';
import { searchAllPapers } from '../../search/papers/search.ts';
import { findPaper, paperPassages, toMetadata, type PaperFilters } from '../../search/papers/store.ts';
import { relatedPapers, type SimilarMode } from '../../search/papers/related.ts';
import { getFromExternalIndexes } from '../../search/papers/external.ts';
import { safeDecode } from '../../search/operators.ts';
import { Type } from '@sinclair/typebox';

const TITLES: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  408: 'Request Timeout', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
};

/** A problem-details response (RFC 9457) for an error. */
export function problemResponse(error: unknown, log: Services['log']): Response {
  const e = TrawlError.wrap(error);
  if (e.status >= 500 && e.code === 'UNKNOWN_ERROR') log.error({ err: error }, 'research endpoint failed');
  const body = { type: `urn:trawl:error:${e.code}`, title: TITLES[e.status] ?? 'Error', detail: e.message, status: e.status };
  return new Response(JSON.stringify(body), {
    status: e.status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', ...(e.headers ?? {}) },
  });
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

function bad(message: string): TrawlError {
  return new TrawlError('BAD_REQUEST', message);
}

/** Reads an integer parameter within bounds. */
function intParam(params: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const v = params.get(name);
  if (v === null || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw bad(`${name} must be an integer from ${min} to ${max}, got "${v.slice(0, 20)}".`);
  return n;
}

/** Repeated or comma-separated values (`authors=a&authors=b` or `authors=a,b`). */
function listParam(params: URLSearchParams, name: string): string[] {
  return params.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

function dayParam(params: URLSearchParams, name: string): string | undefined {
  const v = params.get(name)?.trim();
  if (!v) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) throw bad(`${name} must be a date as YYYY-MM-DD, got "${v.slice(0, 20)}".`);
  return v;
}

export function researchRoutes(services: Services) {
  const log = services.log.child({ component: 'research' });
  const deps = { config: services.config, db: services.db, log };
  const guarded = (fn: (request: Request, params: URLSearchParams) => Promise<unknown>) => async ({ request }: { request: Request }) => {
    try {
      await admit(services, request, { group: 'research' });
      return json(await fn(request, new URL(request.url).searchParams));
    } catch (e) {
      return problemResponse(e, log);
    }
  };
  const errors = { 400: ProblemDetails, 401: ProblemDetails, 404: ProblemDetails, 429: ProblemDetails, 500: ProblemDetails, 503: ProblemDetails };
  const SearchPapers = Type.Object({ success: Type.Literal(true), results: Type.Array(PaperResultModel) });

  return new Elysia({ name: 'routes/research' })
    .get(
      '/v2/search/research/papers',
      guarded(async (_req, p) => {
        const query = p.get('query')?.trim();
        if (!query) throw bad('query is required: the words to search paper titles and abstracts for.');
        if (query.length > 2000) throw bad(`query is too long (${query.length} characters); at most 2000 are allowed.`);
        const k = intParam(p, 'k', 1, 500, 40);
        const filters: PaperFilters = { authors: listParam(p, 'authors'), categories: listParam(p, 'categories'), from: dayParam(p, 'from'), to: dayParam(p, 'to') };
        if (filters.from && filters.to && filters.from > filters.to) throw bad('from must not be after to.');
        return { success: true, results: await searchAllPapers(deps, query, k, filters) };
      }),
      { response: { 200: SearchPapers, ...errors }, detail: { summary: 'Search the research paper index', tags: ['Search'], description: 'Query parameters: query (required), k (1-500, default 40), authors, categories (repeated or comma-separated; all must match), from, to (YYYY-MM-DD, inclusive).' } },
    )
    .get(
      '/v2/search/research/papers/:id',
      guarded(async (req, p) => {
        const id = safeDecode(new URL(req.url).pathname.split('/').pop() ?? '');
        const query = p.get('query')?.trim();
        if (p.has('k') && !query) throw bad('k is only valid together with query.');
        const k = intParam(p, 'k', 1, 50, 4);
        const row = await findPaper(services.db, id);
        if (!row) {
          const external = await getFromExternalIndexes(services.config, `/papers/${encodeURIComponent(id)}`, p, log);
          if (external) return external;
          throw new TrawlError('NOT_FOUND', `No paper "${id.slice(0, 200)}" in the paper index.`);
        }
        const paper = toMetadata(row);
        if (!query) return { success: true, paper };
        return { success: true, paper, paperId: paper.paperId, query, passages: await paperPassages(services.db, row.id, query, k) };
      }),
      { detail: { summary: 'Paper metadata, or in-body passages with ?query=', tags: ['Search'] } },
    )
    .get(
      '/v2/search/research/papers/:id/similar',
      guarded(async (req, p) => {
        const parts = new URL(req.url).pathname.split('/');
        const id = safeDecode(parts[parts.length - 2] ?? '');
        const intent = p.get('intent')?.trim();
        if (!intent) throw bad('intent is required: say what the related papers should be about.');
        const mode = (p.get('mode') ?? 'similar') as SimilarMode;
        if (!['similar', 'citers', 'references'].includes(mode)) throw bad('mode must be similar, citers or references.');
        const k = intParam(p, 'k', 1, 500, 40);
        const seed = await findPaper(services.db, id);
        if (!seed) {
          const external = await getFromExternalIndexes(services.config, `/papers/${encodeURIComponent(id)}/similar`, p, log);
          if (external) return external;
          throw new TrawlError('NOT_FOUND', `No paper "${id.slice(0, 200)}" in the paper index.`);
        }
        const { results, poolSize } = await relatedPapers(services.db, seed, intent, mode, k);
        const out: Record<string, unknown> = { success: true, results, poolSize, truncated: poolSize > results.length };
        if (results.length === 0) out.note = mode === 'similar' ? 'No related papers in the index.' : `No ${mode} of this paper in the index.`;
        return out;
      }),
      { detail: { summary: 'Papers related to a paper', tags: ['Search'], description: 'intent (required), mode similar|citers|references, k 1-500 (default 40).' } },
    );
}
