/**
 * Crawl endpoints (interface.md "POST /v2/crawl", "GET /v2/crawl/{id}", errors; compat.md §7, §8,
 * §19): start, status with paging, errors, cancel and the active list, under /v2 and /v1. The work is
 * done by workers (core/crawl); these handlers validate, admit, and read the database.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { resolveScrapeOptions } from '../../pipeline/scrape-options.ts';
import { assertFetchable } from '../../net/address.ts';
import { resolveCrawlerOptions } from '../../crawl/options.ts';
import { crawlerOptionsWithPrompt, optionsFromPrompt } from '../../crawl/prompt.ts';
import { modelFor } from '../../llm/service.ts';
import { normalizeTargetUrl } from '../../pipeline/scrape-options.ts';
import { startCrawl } from '../../crawl/start.ts';
import { jobForTeam } from '../../crawl/access.ts';
import { statusBody } from '../../crawl/status.ts';
import { activeJobs, cancelJob, jobErrors } from '../../store/crawls.ts';
import { resolveWebhook } from '../../webhooks/spec.ts';
import { kickJob } from '../../webhooks/deliver.ts';
import { webhookDeps } from '../../crawl/webhook-deps.ts';
import { scrapeOptionsSchema } from '../models/scrape.ts';
import { errorResponses } from '../models/common.ts';
import { ActiveCrawlsModel, CancelledModel, crawlBodyModel, JobErrorsModel, JobStarted, JobStatusModel } from '../models/crawl.ts';
import { admit } from '../guard.ts';
import { documentForKey } from '../../auth/document-filter.ts';
import { teamBalance } from '../../credits/ledger.ts';
import { publicBaseUrl } from '../base-url.ts';
import { rawJson } from '../errors.ts';
import { v1CrawlRequest } from '../v1-translate.ts';
import { resolveThreatPolicy } from '../../threat/team.ts';
import { assertThreatAllowed } from '../../threat/check.ts';

const Params = Type.Object({ id: Type.String() });

/**
 * A `transform` hook translating a v1 JSON-object body to v2 before validation (compat.md §19);
 * other bodies are left for validation to refuse.
 */
export function v1Body(translate: (v1: Record<string, any>) => Record<string, any>) {
  return (ctx: { body: unknown }) => {
    if (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body)) ctx.body = translate(ctx.body as Record<string, any>);
  };
}

/**
 * Reads `skip` and `limit` of a status request (compat.md §8: limit 1–1000).
 * @throws TrawlError BAD_REQUEST for values that are not such integers
 */
export function pagingOf(query: Record<string, string | undefined>): { skip: number; limit?: number } {
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = query[name];
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new TrawlError('BAD_REQUEST', `${name} must be an integer from ${min} to ${max}`);
    return Number(v);
  };
  return { skip: int('skip', 0, Number.MAX_SAFE_INTEGER) ?? 0, limit: int('limit', 1, 1000) };
}

/** Cancels the queue messages of pages a cancel dropped (best effort; claims fail anyway). */
export function cancelQueued(services: Services, queueIds: string[]): void {
  void Promise.all(queueIds.map((id) => services.queue.cancel(id).catch(() => false)));
}

/**
 * Checks that the team holds `needed` credits (a prompt raised the limit the request was admitted with).
 * @throws TrawlError PAYMENT_REQUIRED (402)
 */
async function assertCredits(services: Services, teamId: string, needed: number): Promise<void> {
  const balance = (await teamBalance(services.db, teamId)) ?? 0;
  if (balance < needed) {
    throw new TrawlError('PAYMENT_REQUIRED', `Insufficient credits: the prompt's limit of ${needed} pages needs ${needed} credits but the team has ${Math.max(0, balance)} remaining. Set a lower limit.`);
  }
}

/** Crawl routes for one API version. */
function crawlVersion(services: Services, version: 'v1' | 'v2') {
  const options = scrapeOptionsSchema([...services.formats.values()]);
  const CrawlBody = crawlBodyModel(options);
  const base = `/${version}/crawl`;
  const tags = [version === 'v2' ? 'Crawl' : 'v1'];
  /** `GET /crawl/active` (alias `/ongoing`): the team's running crawls (compat.md §7.5). */
  const listActive = async (request: Request) => {
    const principal = await admit(services, request, { group: 'crawl' });
    const rows = await activeJobs(services.db, principal.teamId, 'crawl');
    return {
      success: true as const,
      crawls: rows.map((r) => ({ id: r.id, teamId: r.team_id, url: r.url, created_at: new Date(r.created_at).toISOString(), options: r.options })),
    };
  };
  return new Elysia({ name: `routes/crawl/${version}` })
    .post(
      base,
      async ({ body, request }) => {
        const explicit = resolveCrawlerOptions(body as Record<string, unknown>);
        const scrape = resolveScrapeOptions((body.scrapeOptions ?? {}) as Record<string, unknown>, services.formats, 'crawl');
        if (body.zeroDataRetention === true) scrape.zeroDataRetention = true;
        // Who asks, what the key may do and the credits come first: a prompt spends the operator's model key (issue 15 item 6).
        const principal = await admit(services, request, {
          group: 'crawl', formats: scrape.formats, actions: scrape.actions, credits: explicit.limit, zeroDataRetention: scrape.zeroDataRetention,
        });
        const bodyThreat = (body as { threatProtection?: unknown }).threatProtection;
        scrape.threatProtection = await resolveThreatPolicy(services, principal.teamId, bodyThreat ?? body.scrapeOptions?.threatProtection, bodyThreat ? 'threatProtection' : 'scrapeOptions.threatProtection');
        assertThreatAllowed(explicit.url, scrape.threatProtection);
        await assertFetchable(explicit.url, services.config.targets);
        // A prompt generates options; explicit parameters override them (interface.md "Crawl request body").
        // Asked last, so that no refused request spends model calls (issue 18 scope 4).
        const prompted = typeof body.prompt === 'string' && body.prompt.trim()
          ? await crawlerOptionsWithPrompt(modelFor(services, { teamId: principal.teamId, apiKeyId: principal.keyId }), body as Record<string, unknown>, explicit, body.prompt)
          : undefined;
        const crawler = prompted?.crawler ?? explicit;
        crawler.threatProtection = scrape.threatProtection;
        if (crawler.limit > explicit.limit) await assertCredits(services, principal.teamId, crawler.limit);
        const webhook = resolveWebhook(body.webhook);
        const { scrapeOptions, webhook: _w, origin: _o, integration: _i, ...rest } = body as Record<string, unknown>;
        const id = await startCrawl(services, {
          principal, crawler, scrape, webhook,
          publicOptions: { ...rest, scrapeOptions: scrapeOptions ?? {} },
          idempotencyKey: request.headers.get('x-idempotency-key') ?? undefined,
        });
        const url = `${publicBaseUrl(services.config, request)}${base}/${id}`;
        const threatWarning = scrape.threatProtection?.warning;
        if (!prompted) return { success: true as const, id, url, ...(threatWarning ? { warning: threatWarning } : {}) };
        const joined = [prompted.warning, threatWarning].filter(Boolean).join(' ');
        const warning = joined ? { warning: joined } : {};
        return { success: true as const, id, url, promptGeneratedOptions: prompted.generated ?? {}, finalCrawlerOptions: { ...crawler, prompt: body.prompt }, ...warning };
      },
      {
        // v1 bodies become v2 before validation (compat.md §19).
        transform: version === 'v1' ? v1Body(v1CrawlRequest) : undefined,
        body: CrawlBody,
        response: { 200: JobStarted, 409: errorResponses[400], ...errorResponses },
        detail: { summary: 'Start a crawl', tags, description: 'Discovers pages (sitemaps and links) from a start URL and scrapes each.' },
      },
    )
    .post(
      `${base}/params-preview`,
      async ({ body, request }) => {
        const principal = await admit(services, request, { group: 'crawl', credits: 0 });
        const url = normalizeTargetUrl(body.url);
        const model = modelFor(services, { teamId: principal.teamId, apiKeyId: principal.keyId });
        const { options, warning } = await optionsFromPrompt(model, url, body.prompt);
        return { success: true as const, data: { url, ...options }, ...(warning ? { warning } : {}) };
      },
      {
        body: Type.Object({ url: Type.String({ minLength: 1 }), prompt: Type.String({ minLength: 1, maxLength: 10_000 }) }, { additionalProperties: true }),
        detail: { summary: 'Crawl options a prompt would generate', tags },
      },
    )
    .get(`${base}/active`, ({ request }) => listActive(request), {
      response: { 200: ActiveCrawlsModel, ...errorResponses },
      detail: { summary: 'Running crawls of the team', tags },
    })
    .get(`${base}/ongoing`, ({ request }) => listActive(request), {
      response: { 200: ActiveCrawlsModel, ...errorResponses },
      detail: { summary: 'Alias of /crawl/active', tags },
    })
    .get(
      `${base}/:id`,
      async ({ params, request, query }) => {
        const principal = await admit(services, request, { group: 'crawl' });
        const job = await jobForTeam(services.db, params.id, principal.teamId, 'crawl');
        const paging = pagingOf(query as Record<string, string>);
        const selfUrl = `${publicBaseUrl(services.config, request)}${base}/${job.id}`;
        return rawJson(await statusBody(services.db, job, { ...paging, selfUrl, document: (d) => documentForKey(d, principal) }));
      },
      {
        params: Params,
        response: { 200: JobStatusModel, ...errorResponses },
        detail: { summary: 'Crawl status and results', tags, description: 'Counters, documents in completion order, and `next` for paging (10 MB per page).' },
      },
    )
    .get(
      `${base}/:id/errors`,
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'crawl' });
        const job = await jobForTeam(services.db, params.id, principal.teamId, 'crawl');
        return jobErrors(services.db, job.id);
      },
      { params: Params, response: { 200: JobErrorsModel, ...errorResponses }, detail: { summary: 'Failed pages and robots-blocked URLs', tags } },
    )
    .delete(
      `${base}/:id`,
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'crawl' });
        const job = await jobForTeam(services.db, params.id, principal.teamId, 'crawl');
        cancelQueued(services, await cancelJob(services.db, job.id));
        if (job.options.webhook) kickJob(webhookDeps(services), job.id);
        return { status: 'cancelled' as const };
      },
      { params: Params, response: { 200: CancelledModel, 409: errorResponses[400], ...errorResponses }, detail: { summary: 'Cancel a crawl', tags } },
    );
}

export function crawlRoutes(services: Services) {
  return new Elysia({ name: 'routes/crawl' }).use(crawlVersion(services, 'v2')).use(crawlVersion(services, 'v1'));
}
