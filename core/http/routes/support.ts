/**
 * Support endpoints (interface.md "Support records"; compat.md §16): `POST /v2/support/docs-search`
 * over Trawl's embedded documentation and the OpenAPI operations of this very app (read through
 * `openapi`, the app's own `/docs/json` handled in-process, no HTTP). Always reachable with any valid
 * key (group `support`); 60 s ceiling (504 past it).
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { admit } from '../guard.ts';
import { errorResponses, ErrorEnvelope } from '../models/common.ts';
import { SupportModels } from '../models/support.ts';
import { buildDocsIndex, searchDocs, type DocsIndex } from '../../support/docs-search.ts';
import { openApiSections, type OpenApiDocument } from '../../support/docs-corpus.ts';
import { newId } from '../../ids.ts';
import { TrawlError } from '../../errors.ts';

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

/**
 * @param openapi reads the app's OpenAPI document (added to the docs index once, on first use);
 *   without it only the embedded pages are searched
 */
export function supportRoutes(services: Services, openapi?: () => Promise<OpenApiDocument>) {
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
  return new Elysia({ name: 'routes/support' }).post(
    '/v2/support/docs-search',
    async ({ body, request }) => {
      const started = performance.now();
      await admit(services, request, { group: 'support' });
      const out = await withCeiling(async (signal) => searchDocs(await docsIndex(), body.question, { signal }));
      return { requestId: newId(), ...out, durationMs: Math.round(performance.now() - started) };
    },
    {
      body: SupportModels.docsRequest,
      response: { 200: SupportModels.docsResponse, ...errorResponses, 504: ErrorEnvelope },
      detail: { summary: "Search Trawl's own documentation (README, docs, API reference, error codes)", tags },
    },
  );
}
