/**
 * Batch scrape endpoints (compat.md §6, §8; v1 mirror §19): start (flat scrape options,
 * `ignoreInvalidURLs`, `appendToId`, `maxConcurrency`, `x-idempotency-key`), status with paging,
 * errors and cancel. Pages are scraped by the crawl worker.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { resolveScrapeOptions } from '../../pipeline/scrape-options.ts';
import { assertFetchable } from '../../net/address.ts';
import { TrawlError } from '../../errors.ts';
import { appendToBatch, checkBatchUrls } from '../../jobs/batch.ts';
import { startBatch } from '../../crawl/start.ts';
import { enqueueItems } from '../../crawl/enqueue.ts';
import { jobForTeam } from '../../crawl/access.ts';
import { statusBody } from '../../crawl/status.ts';
import { cancelJob, jobErrors } from '../../store/crawls.ts';
import { resolveWebhook } from '../../webhooks/spec.ts';
import { kickJob } from '../../webhooks/deliver.ts';
import { webhookDeps } from '../../crawl/webhook-deps.ts';
import { scrapeOptionsSchema } from '../models/scrape.ts';
import { errorResponses } from '../models/common.ts';
import { batchBodyModel, CancelledModel, JobErrorsModel, JobStarted, JobStatusModel } from '../models/crawl.ts';
import { admit } from '../guard.ts';
import { documentForKey } from '../../auth/document-filter.ts';
import { publicBaseUrl } from '../base-url.ts';
import { rawJson } from '../errors.ts';
import { cancelQueued, v1Body, pagingOf } from './crawl.ts';
import { v1BatchRequest } from '../v1-translate.ts';
import { resolveThreatPolicy } from '../../threat/team.ts';
import { assertThreatAllowed } from '../../threat/check.ts';

const Params = Type.Object({ id: Type.String() });

function batchVersion(services: Services, version: 'v1' | 'v2') {
  const BatchBody = batchBodyModel(scrapeOptionsSchema([...services.formats.values()]));
  const base = `/${version}/batch/scrape`;
  const tags = [version === 'v2' ? 'Batch scrape' : 'v1'];
  return new Elysia({ name: `routes/batch/${version}` })
    .post(
      base,
      async ({ body, request }) => {
        const raw = body as Record<string, any>;
        const scrape = resolveScrapeOptions(raw, services.formats, 'batch');
        const checked = checkBatchUrls(raw.urls, raw.ignoreInvalidURLs !== false);
        const principal = await admit(services, request, {
          group: 'batch-scrape', formats: scrape.formats, actions: scrape.actions, credits: checked.valid.length, zeroDataRetention: scrape.zeroDataRetention,
        });
        scrape.threatProtection = await resolveThreatPolicy(services, principal.teamId, raw.threatProtection);
        const allowed: typeof checked.valid = [];
        for (const u of checked.valid) {
          assertThreatAllowed(u.url, scrape.threatProtection);
          try {
            await assertFetchable(u.url, services.config.targets);
            allowed.push(u);
          } catch (e) {
            if (raw.ignoreInvalidURLs === false || !(e instanceof TrawlError) || e.code !== 'UNSAFE_TARGET') throw e;
            checked.invalid.push(u.sourceUrl);
          }
        }
        if (allowed.length === 0) throw new TrawlError('BAD_REQUEST', 'No valid URLs provided');
        const baseUrl = publicBaseUrl(services.config, request);
        let id: string;
        if (raw.appendToId) {
          id = String(raw.appendToId).toLowerCase();
          await enqueueItems(services, await appendToBatch(services, id, principal.teamId, allowed));
        } else {
          const { urls: _u, webhook: _w, appendToId: _a, origin: _o, integration: _i, ...rest } = raw;
          id = await startBatch(services, {
            principal, urls: allowed, scrape, webhook: resolveWebhook(raw.webhook), maxConcurrency: raw.maxConcurrency,
            publicOptions: rest, idempotencyKey: request.headers.get('x-idempotency-key') ?? undefined,
          });
        }
        const warning = scrape.threatProtection?.warning;
        return { success: true as const, id, url: `${baseUrl}${base}/${id}`, ...(checked.invalid.length ? { invalidURLs: checked.invalid } : {}), ...(warning ? { warning } : {}) };
      },
      {
        // v1 bodies become v2 before validation (compat.md §19).
        transform: version === 'v1' ? v1Body(v1BatchRequest) : undefined,
        body: BatchBody,
        response: { 200: JobStarted, ...errorResponses },
        detail: { summary: 'Scrape many URLs', tags, description: 'Scrape options are given flat, next to `urls`.' },
      },
    )
    .get(
      `${base}/:id`,
      async ({ params, request, query }) => {
        const principal = await admit(services, request, { group: 'batch-scrape' });
        const job = await jobForTeam(services.db, params.id, principal.teamId, 'batch_scrape');
        const paging = pagingOf(query as Record<string, string>);
        const selfUrl = `${publicBaseUrl(services.config, request)}${base}/${job.id}`;
        return rawJson(await statusBody(services.db, job, { ...paging, selfUrl, document: (d) => documentForKey(d, principal) }));
      },
      { params: Params, response: { 200: JobStatusModel, ...errorResponses }, detail: { summary: 'Batch scrape status and results', tags } },
    )
    .get(
      `${base}/:id/errors`,
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'batch-scrape' });
        const job = await jobForTeam(services.db, params.id, principal.teamId, 'batch_scrape');
        return jobErrors(services.db, job.id);
      },
      { params: Params, response: { 200: JobErrorsModel, ...errorResponses }, detail: { summary: 'Failed pages of a batch scrape', tags } },
    )
    .delete(
      `${base}/:id`,
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'batch-scrape' });
        const job = await jobForTeam(services.db, params.id, principal.teamId, 'batch_scrape');
        cancelQueued(services, await cancelJob(services.db, job.id));
        if (job.options.webhook) kickJob(webhookDeps(services), job.id);
        return { status: 'cancelled' as const };
      },
      { params: Params, response: { 200: CancelledModel, ...errorResponses }, detail: { summary: 'Cancel a batch scrape', tags } },
    );
}

export function batchRoutes(services: Services) {
  return new Elysia({ name: 'routes/batch' }).use(batchVersion(services, 'v2')).use(batchVersion(services, 'v1'));
}
