/**
 * Support endpoints (interface.md "Support records"; compat.md §16): `POST /v2/support/docs-search`
 * over Trawl's embedded documentation and the OpenAPI operations of this very app, and `POST
 * /v2/support/ask`, which diagnoses the caller team's failed requests with the `support` plugins and
 * re-runs them with the fix. Both reach the app itself in-process through `handle` (its own
 * `/docs/json`; replays as the caller, same Authorization header), never over HTTP. Always reachable
 * with any valid key (group `support`); 60 s ceiling (504 past it).
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { admit } from '../guard.ts';
import { errorResponses, ErrorEnvelope } from '../models/common.ts';
import { SupportModels } from '../models/support.ts';
import { buildDocsIndex, searchDocs, type DocsIndex } from '../../support/docs-search.ts';
import { modelFor } from '../../llm/service.ts';
import { openApiSections, type OpenApiDocument } from '../../support/docs-corpus.ts';
import { newId } from '../../ids.ts';
import { TrawlError } from '../../errors.ts';
import { askSupport } from '../../support/ask.ts';
import type { Replay } from '../../support/validate.ts';

/** Ceiling of one support request, ms (compat.md §16). */
export const SUPPORT_CEILING_MS = 60_000;

/** Runs `work` under the 60 s ceiling. @throws TrawlError GATEWAY_TIMEOUT (504) past it */
export async function withCeiling<T>(work: (signal: AbortSignal) => Promise<T>, ms = SUPPORT_CEILING_MS): Promise<T> {
  const ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ctl.abort();
      reject(new TrawlError('GATEWAY_TIMEOUT', `the support request took longer than ${ms / 1000} s`));
    }, ms);
  });
  try {
    return await Promise.race([work(ctl.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Answers one request of the app in-process (the app's `handle`). */
export type AppHandle = (request: Request) => Promise<Response>;

const LOCAL = 'http://trawl.local';

/**
 * @param handle the app's own request handler: the OpenAPI document for docs-search (read once, on
 *   first use) and the validation re-runs of ask; without it docs-search reads only the embedded
 *   pages and ask does not validate
 */
export function supportRoutes(services: Services, handle?: AppHandle) {
  const openapi = handle && (async () => (await handle(new Request(`${LOCAL}/docs/json`))).json() as Promise<OpenApiDocument>);
  const replayAs = (authorization: string | null): Replay | undefined =>
    handle &&
    (async (method, path, body) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization) headers.authorization = authorization;
      const res = await handle(new Request(`${LOCAL}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { error: text.slice(0, 200) };
      }
      return { status: res.status, body: parsed };
    });
  let index: Promise<DocsIndex> | undefined;
  const docsIndex = () =>
    (index ??= (async () => {
      const doc = await openapi?.().catch((e: unknown) => {
        services.log.warn({ err: e }, 'support: the OpenAPI document could not be read; docs-search goes on without it');
        return undefined;
      });
      return buildDocsIndex(doc ? openApiSections(doc) : []);
    })());
  const tags = ['Support'];
  return new Elysia({ name: 'routes/support' })
    .post(
      '/v2/support/ask',
      async ({ body, request }) => {
        const started = performance.now();
        const principal = await admit(services, request, { group: 'support' });
        const deadline = Date.now() + SUPPORT_CEILING_MS;
        const out = await withCeiling(async (signal) => {
          const plugins = await services.registry.all('support');
          const log = services.log.child({ component: 'support' });
          const ctx = { config: services.config, log, signal, deadline, blobs: services.blobs };
          return askSupport({ db: services.db, plugins, ctx, replay: replayAs(request.headers.get('authorization')) }, principal.teamId, body.question, body.context, deadline);
        });
        return { requestId: newId(), ...out, durationMs: Math.round(performance.now() - started) };
      },
      {
        body: SupportModels.askRequest,
        response: { 200: SupportModels.askResponse, ...errorResponses, 504: ErrorEnvelope },
        detail: {
          summary: "Diagnose the team's failed scrape, crawl or batch and test the fix",
          description: 'Names the failure class, the parameters that fix it (fixParameters) and the result of re-running the request with them (validation).',
          tags,
        },
      },
    )
    .post(
      '/v2/support/docs-search',
      async ({ body, request }) => {
        const started = performance.now();
        const principal = await admit(services, request, { group: 'support' });
        // A configured model only adds prose over the quoted passages; its tokens go to the team.
        const model = modelFor(services, { teamId: principal.teamId, apiKeyId: principal.keyId });
        const out = await withCeiling(async (signal) => searchDocs(await docsIndex(), body.question, { signal, model }));
        return { requestId: newId(), ...out, durationMs: Math.round(performance.now() - started) };
      },
      {
        body: SupportModels.docsRequest,
        response: { 200: SupportModels.docsResponse, ...errorResponses, 504: ErrorEnvelope },
        detail: { summary: "Search Trawl's own documentation (README, docs, API reference, error codes)", tags },
      },
    );
}
