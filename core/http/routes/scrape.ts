/**
 * `POST /v2/scrape` and `GET /v2/scrape/{id}` (interface.md Endpoints; compat.md §4). The API resolves
 * options, refuses unsafe targets early, queues the scrape and waits for the worker's serialized
 * Document, which it returns byte for byte. A job still running at the request's timeout goes on: the
 * answer is 408 `processing_continues` and an identical repeat joins the job (core/jobs/scrape-resume.ts).
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { newId, isUuid } from '../../ids.ts';
import { scrapeOptionsSchema } from '../models/scrape.ts';
import { DocumentModel, errorResponses } from '../models/common.ts';
import { normalizeTargetUrl, resolveScrapeOptions } from '../../pipeline/scrape-options.ts';
import { assertFetchable } from '../../net/address.ts';
import { withDeadline } from '../../net/deadline.ts';
import { SCRAPE_QUEUE, handleScrapeJob, type ScrapeJobData, type ScrapeJobResult } from '../../jobs/scrape.ts';
import { getDocument } from '../../store/documents.ts';
import { documentForKey } from '../../auth/document-filter.ts';
import { admit } from '../guard.ts';
import { answeredByCache, cacheOnly } from '../../cache/index.ts';
import { getScrapeRecord } from '../../interact/records.ts';
import { rawJson } from '../errors.ts';
import { dropResume, findResume, jobTimeout, processingContinues, resumeKey, saveResume } from '../../jobs/scrape-resume.ts';
import { resolveThreatPolicy } from '../../threat/team.ts';
import { assertThreatAllowed } from '../../threat/check.ts';
import { keepsNoData } from '../../privacy/retention.ts';
import { isWaitTimeout } from '../../queue/index.ts';

/** Extra time the API waits beyond the scrape timeout for the worker to answer, ms. */
const WAIT_GRACE_MS = 5_000;

export function scrapeRoutes(services: Services) {
  const formatList = [...services.formats.values()];
  const options = scrapeOptionsSchema(formatList);
  const ScrapeBody = Type.Object(
    { url: Type.String({ minLength: 1, description: 'URL to scrape' }), ...options.properties },
    { additionalProperties: true },
  );
  const ScrapeResponse = Type.Object({ success: Type.Literal(true), data: DocumentModel });

  return new Elysia({ name: 'routes/scrape' })
    .post(
      '/v2/scrape',
      async ({ body, request }) => {
        const url = normalizeTargetUrl(body.url);
        const resolved = resolveScrapeOptions(body as Record<string, unknown>, services.formats);
        const principal = await admit(services, request, { group: 'scrape', keyless: true, formats: resolved.formats, actions: resolved.actions, credits: 1, zeroDataRetention: resolved.zeroDataRetention });
        resolved.threatProtection = await resolveThreatPolicy(services, principal.teamId, body.threatProtection);
        // Cache-only requests (lockdown, minAge) never contact the target, not even its DNS.
        if (!cacheOnly(resolved)) assertThreatAllowed(url, resolved.threatProtection);
        if (!cacheOnly(resolved)) await assertFetchable(url, services.config.targets);
        // An identical repeat of a request that answered 408 processing_continues joins its job (compat.md §4).
        const key = resumeKey(principal.teamId, principal.keyId, body);
        const running = await findResume(services.db, key, principal.teamId, { soleWriter: services.queue.kind === 'memory' });
        const scrapeId = running?.scrapeId ?? newId();
        const data: ScrapeJobData = { scrapeId, url, sourceURL: body.url, options: { ...resolved, timeout: jobTimeout(resolved.timeout) }, requestTimeoutMs: resolved.timeout, teamId: principal.teamId, keyId: principal.keyId };
        // A cache hit needs no fetch: answer it here, without the queue round trip (and without reading the entry again).
        const cache = running ? undefined : await answeredByCache(services.db, url, resolved);
        if (cache?.answered) {
          const result = await withDeadline(resolved.timeout, undefined, (signal) => handleScrapeJob(services, { ...data, options: resolved }, signal, cache.read));
          return rawJson(`{"success":true,"data":${result.document}}`);
        }
        if (cache?.read) data.cacheMissKey = cache.read.key;
        const runUntil = running?.runUntil ?? new Date(Date.now() + data.options.timeout);
        let result: ScrapeJobResult;
        try {
          // The request answers at its timeout; a job with a longer budget goes on (core/jobs/scrape-resume.ts).
          const waitMs = data.options.timeout > resolved.timeout ? resolved.timeout : resolved.timeout + WAIT_GRACE_MS;
          const until = Math.max(1, Math.min(waitMs, runUntil.getTime() - Date.now() + WAIT_GRACE_MS));
          // A new job is added and waited for in one call: the in-process queue runs it here at once
          // when it has a free slot, without a queue row unless the wait ends first (core/queue/types.ts).
          result = running
            ? await services.queue.waitFor<ScrapeJobResult>(scrapeId, until)
            : await services.queue.addAndWait<ScrapeJobData, ScrapeJobResult>(SCRAPE_QUEUE, 'scrape', data, { id: scrapeId }, until);
        } catch (error) {
          const e = TrawlError.wrap(error);
          // Only the wait giving up is a timeout of this request; a job's own 504 (a model that did
          // not answer) is its answer.
          const waitedOut = isWaitTimeout(e);
          if (waitedOut && runUntil.getTime() > Date.now()) {
            await saveResume(services.db, key, principal.teamId, { scrapeId, runUntil });
            throw processingContinues(body.url, runUntil, resolved.timeout);
          }
          if (running) await dropResume(services.db, key);
          if (waitedOut) {
            await services.queue.cancel(scrapeId).catch(() => {});
            throw new TrawlError('SCRAPE_TIMEOUT', `Scrape of ${body.url} timed out after ${resolved.timeout} ms. Raise "timeout" (max 300000) or retry.`);
          }
          throw e;
        } finally {
          // Zero data retention: the queue's copy of the result (the document) goes at once.
          if (keepsNoData(resolved)) await services.queue.forget(scrapeId).catch(() => {});
        }
        if (running) await dropResume(services.db, key);
        return rawJson(`{"success":true,"data":${result.document}}`);
      },
      {
        body: ScrapeBody,
        response: { 200: ScrapeResponse, ...errorResponses },
        detail: { summary: 'Scrape one URL', tags: ['Scrape'], description: 'Fetches a URL and returns the requested formats.' },
      },
    )
    .get(
      '/v2/scrape/:id',
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'scrape', keyless: true });
        if (!isUuid(params.id)) throw new TrawlError('JOB_NOT_FOUND', 'Job not found');
        const doc = await getDocument(services.db, params.id.toLowerCase());
        if (!doc) await explainMissing(services, params.id.toLowerCase(), principal.teamId);
        if (!doc) throw new TrawlError('JOB_NOT_FOUND', 'Job not found');
        if (doc.teamId !== principal.teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
        if (doc.expiresAt && doc.expiresAt.getTime() < Date.now()) throw new TrawlError('JOB_EXPIRED', 'Job expired');
        // A format-restricted key reads only its formats of the team's document (issue 15 item 11).
        return rawJson(`{"success":true,"data":${documentForKey(doc.body, principal)}}`);
      },
      {
        params: Type.Object({ id: Type.String() }),
        response: { 200: ScrapeResponse, ...errorResponses },
        detail: { summary: 'Get a stored scrape', tags: ['Scrape'] },
      },
    );
}

/**
 * A scrape without a stored document: a zero data retention scrape of the caller's team answers 400
 * (compat.md §4: nothing was stored), another team's 403; otherwise the caller's 404 follows.
 */
async function explainMissing(services: Services, id: string, teamId: string): Promise<void> {
  const record = await getScrapeRecord(services.db, id);
  if (!record?.zeroDataRetention) return;
  if (record.teamId !== teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
  throw new TrawlError('BAD_REQUEST', 'This scrape used zero data retention (or lockdown): its result was returned once and never stored, so it cannot be read back.');
}
