/**
 * The v1 equivalents of scrape and search (interface.md Versioning 2; compat.md §19). Each v1 route
 * translates its request (core/http/v1-translate.ts) and hands it to the v2 route in the same process
 * (`server.fetch`, no network hop), keeping the caller's key and IP, so key restrictions, credits,
 * rate limits and validation are exactly those of v2; then it translates the answer back (flat search
 * `data`). Errors pass through as they are. v1 crawl, batch scrape and map live beside their v2 forms
 * (core/http/routes/crawl.ts, batch.ts, map.ts); `/v1/team/*` in core/http/routes/team.ts.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Server } from 'bun';
import { TrawlError } from '../../errors.ts';
import { forwardedHeaders } from '../client-ip.ts';
import { v1ScrapeOptions, v1SearchRequest, v1SearchResponse } from '../v1-translate.ts';

type Json = Record<string, any>;

interface Ctx {
  request: Request;
  server: Server<unknown> | null;
}

/** Headers of a v2 answer worth keeping on the v1 answer. */
const KEEP_HEADERS = ['content-type', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining'];

/**
 * Sends a request to the v2 route `path` of this server and returns its answer, translated by `map`
 * when it is a JSON body (errors included: `map` must leave bodies it does not know unchanged).
 */
async function forward(ctx: Ctx, method: string, path: string, body?: Json, map?: (json: Json) => Json): Promise<Response> {
  if (!ctx.server) throw new TrawlError('UNKNOWN_ERROR', 'The v1 API needs the HTTP server (it forwards to the v2 routes).');
  const from = new URL(ctx.request.url);
  const url = new URL(path + from.search, from);
  const headers = forwardedHeaders(ctx.request);
  headers.delete('content-length');
  if (body !== undefined) headers.set('content-type', 'application/json');
  const res = await ctx.server.fetch(new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  const out = new Headers();
  for (const h of KEEP_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) out.set(h, v);
  }
  if (!map || !(res.headers.get('content-type') ?? '').includes('json')) return new Response(res.body, { status: res.status, headers: out });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    return new Response(text, { status: res.status, headers: out });
  }
  return new Response(JSON.stringify(map(json)), { status: res.status, headers: out });
}

const AnyBody = Type.Object({}, { additionalProperties: true });
const IdParams = Type.Object({ id: Type.String() });
const hidden = (summary: string) => ({ detail: { summary, tags: ['v1'] } });
const body = (b: unknown): Json => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Json) : {});

export function v1Routes() {
  return new Elysia({ name: 'routes/v1' })
    .post('/v1/scrape', (ctx) => forward(ctx, 'POST', '/v2/scrape', v1ScrapeOptions(body(ctx.body))), { body: AnyBody, ...hidden('v1 scrape') })
    .get('/v1/scrape/:id', (ctx) => forward(ctx, 'GET', `/v2/scrape/${encodeURIComponent(ctx.params.id)}`), { params: IdParams, ...hidden('v1 stored scrape') })
    .post('/v1/search', (ctx) => forward(ctx, 'POST', '/v2/search', v1SearchRequest(body(ctx.body)), v1SearchResponse), { body: AnyBody, ...hidden('v1 search') });
}
