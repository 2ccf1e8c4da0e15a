/**
 * Extract endpoints (compat.md §12; issue 19 scope 1), under /v2 and /v1 (§19: the v1 body's
 * `scrapeOptions` are v1 scrape options): start, status, cancel. The API resolves the request,
 * admits it (endpoint group `extract`: a key allowed only `scrape` is refused), checks the URLs and
 * expands their globs, creates the job row with its `extract.started` event and queues the work
 * (core/jobs/extract.ts); workers do the rest. Status reads end a lost job (core/extract/status.ts).
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { resolveExtractRequest } from '../../extract/request.ts';
import { resolveExtractUrls } from '../../extract/urls.ts';
import { createExtractJob, dropExtractData, endExtractJob } from '../../extract/store.ts';
import { extractForTeam, extractStatusBody, settleExtract } from '../../extract/status.ts';
import { enqueueExtract } from '../../jobs/extract.ts';
import { resolveWebhook } from '../../webhooks/spec.ts';
import { kickJob } from '../../webhooks/deliver.ts';
import { webhookDeps } from '../../crawl/webhook-deps.ts';
import { resolveThreatPolicy } from '../../threat/team.ts';
import { scrapeOptionsSchema } from '../models/scrape.ts';
import { errorResponses } from '../models/common.ts';
import { ExtractCancelled, ExtractStarted, ExtractStatusModel, extractBodyModel } from '../models/extract.ts';
import { admit } from '../guard.ts';
import { v1ExtractRequest } from '../v1-translate.ts';
import { v1Body } from './crawl.ts';

const Params = Type.Object({ id: Type.String() });

function extractVersion(services: Services, version: 'v1' | 'v2') {
  const Body = extractBodyModel(scrapeOptionsSchema([...services.formats.values()]));
  const base = `/${version}/extract`;
  const tags = [version === 'v2' ? 'Extract' : 'v1'];
  return new Elysia({ name: `routes/extract/${version}` })
    .post(
      base,
      async ({ body, request }) => {
        const raw = body as Record<string, any>;
        const zdr = raw.zeroDataRetention === true || raw.scrapeOptions?.zeroDataRetention === true;
        // Who first (401/403 before any work: no map, no model call).
        const principal = await admit(services, request, { group: 'extract', credits: 1, zeroDataRetention: zdr });
        const req = resolveExtractRequest(raw, services.formats);
        const webhook = resolveWebhook(raw.webhook);
        req.scrape.threatProtection = await resolveThreatPolicy(services, principal.teamId, raw.threatProtection ?? raw.scrapeOptions?.threatProtection);
        const { urls, invalid } = await resolveExtractUrls(services, req, req.scrape.threatProtection);
        const id = newId();
        const timeoutMs = req.timeoutMs;
        await createExtractJob(services.db, {
          id, teamId: principal.teamId, url: urls[0], zeroDataRetention: zdr,
          options: { apiKeyId: principal.keyId, webhook, timeoutMs, showSources: req.showSources, ...(invalid.length && !zdr ? { invalidURLs: invalid } : {}) },
        });
        await enqueueExtract(services, { extractId: id, teamId: principal.teamId, keyId: principal.keyId, request: req, urls, deadlineAt: Date.now() + timeoutMs });
        if (webhook) kickJob(webhookDeps(services), id);
        return { success: true as const, id, urlTrace: [], ...(invalid.length ? { invalidURLs: invalid } : {}) };
      },
      {
        transform: version === 'v1' ? v1Body(v1ExtractRequest) : undefined,
        body: Body,
        response: { 200: ExtractStarted, ...errorResponses },
        detail: {
          summary: 'Extract structured data from pages',
          tags,
          description: 'Asynchronous: answers the job id; poll GET /v2/extract/{id}. Without a configured model the data comes from what the pages state, with a warning.',
        },
      },
    )
    .get(
      `${base}/:id`,
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'extract' });
        const job = await settleExtract(services, await extractForTeam(services, params.id, principal.teamId));
        const body = await extractStatusBody(services, job);
        // Zero data retention: the data is handed over once.
        if (job.zeroDataRetention && job.status === 'completed' && !job.result?.dropped) await dropExtractData(services.db, job);
        return body as typeof ExtractStatusModel.static;
      },
      { params: Params, response: { 200: ExtractStatusModel, ...errorResponses }, detail: { summary: 'Extract status and data', tags } },
    )
    .delete(
      `${base}/:id`,
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'extract' });
        const job = await extractForTeam(services, params.id, principal.teamId);
        if (job.status === 'processing') {
          await endExtractJob(services.db, job.id, { status: 'cancelled' });
          await services.queue.cancel(job.id).catch((err) => services.log.warn({ err, extractId: job.id }, 'could not cancel an extract job'));
        } else if (job.status !== 'cancelled') {
          throw new TrawlError('CONFLICT', `The extract already ended (${job.status}); there is nothing to cancel.`);
        }
        return { success: true as const, status: 'cancelled' as const };
      },
      { params: Params, response: { 200: ExtractCancelled, ...errorResponses }, detail: { summary: 'Cancel an extract', tags } },
    );
}

/** The extract routes, v2 and v1. */
export function extractRoutes(services: Services) {
  return new Elysia({ name: 'routes/extract' }).use(extractVersion(services, 'v2')).use(extractVersion(services, 'v1'));
}
