/**
 * `POST /v2/map` (compat.md §10) and `POST /v1/map` (§19: `links` as strings, `ignoreSitemap`
 * default true, `sitemapOnly`, limit ≤ 30000). Synchronous: discovery runs in the API process under
 * the request's `timeout` (408 MAP_TIMEOUT). Costs 1 credit. `location` sets the Accept-Language of
 * the start page fetch, as for a scrape.
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { normalizeTargetUrl } from '../../pipeline/scrape-options.ts';
import { assertFetchable } from '../../net/address.ts';
import { withDeadline } from '../../net/deadline.ts';
import { runMap, type MapRequest } from '../../crawl/map.ts';
import { chargeCredits } from '../../credits/ledger.ts';
import { COSTS } from '../../credits/costs.ts';
import { errorResponses } from '../models/common.ts';
import { MapBody, MapResponse } from '../models/crawl.ts';
import { admit } from '../guard.ts';
import { acceptLanguage, locationEmulation } from '../../scrape/location.ts';
import { auditMetadataOf, recordActivity } from '../../audit/activity.ts';
import { resolveThreatPolicy } from '../../threat/team.ts';
import { assertThreatAllowed, threatVerdict } from '../../threat/check.ts';

/** Longest a map may run without an explicit `timeout`, ms. */
const DEFAULT_MAP_BUDGET_MS = 120_000;

/**
 * Headers for a map's `location` (compat.md §10; the scrape option's shape `{country, languages}`):
 * Accept-Language from its languages, else the country's default language.
 * @throws TrawlError BAD_REQUEST for a country that is not two letters
 */
export function locationHeaders(location: unknown): Record<string, string> {
  if (!location || typeof location !== 'object') return {};
  const { country, languages } = location as { country?: unknown; languages?: unknown };
  if (country !== undefined && !/^[A-Za-z]{2}$/.test(String(country))) {
    throw new TrawlError('BAD_REQUEST', `location.country must be a two-letter ISO 3166-1 alpha-2 code such as "US" or "DE", got "${String(country).slice(0, 20)}"`);
  }
  const langs = locationEmulation({ country: country === undefined ? 'US' : String(country), languages: Array.isArray(languages) ? languages : undefined }).languages;
  return langs?.length ? { 'accept-language': acceptLanguage(langs) } : {};
}

async function mapFor(services: Services, request: Request, body: Record<string, any>, version: 'v1' | 'v2') {
  const url = normalizeTargetUrl(String(body.url));
  const headers = locationHeaders(body.location);
  const principal = await admit(services, request, { group: 'map', credits: COSTS.map });
  const threat = await resolveThreatPolicy(services, principal.teamId, body.threatProtection);
  assertThreatAllowed(url, threat);
  await assertFetchable(url, services.config.targets);
  const v1 = version === 'v1';
  let sitemap: MapRequest['sitemap'] = body.sitemap ?? 'include';
  if (body.sitemap === undefined && body.sitemapOnly === true) sitemap = 'only';
  else if (body.sitemap === undefined && (body.ignoreSitemap ?? v1) === true) sitemap = 'skip';
  const limit = Math.min(body.limit ?? 5000, v1 ? 30_000 : 100_000);
  const timeoutMs = typeof body.timeout === 'number' ? body.timeout : DEFAULT_MAP_BUDGET_MS;
  const id = newId();
  // The deadline's timer stops when the map settles, so its result does not stay reachable from it
  // for the rest of the budget.
  const result = await withDeadline(timeoutMs, undefined, (signal) => {
    const run = runMap(
      { config: services.config, log: services.log.child({ component: 'map', mapId: id }), registry: services.registry, blobs: services.blobs },
      { url, search: body.search, sitemap, includeSubdomains: body.includeSubdomains ?? true, ignoreQueryParameters: body.ignoreQueryParameters ?? true, limit, headers },
      signal,
    );
    const timedOut = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(new TrawlError('MAP_TIMEOUT', `The map operation timed out after ${timeoutMs} ms. Raise "timeout" or map a smaller part of the site.`)), { once: true }),
    );
    // A failure that is not a TrawlError already (a bug, a parser crash) is reported as MAP_FAILED.
    return Promise.race([run.catch((e) => Promise.reject(TrawlError.wrap(e, 'MAP_FAILED'))), timedOut]);
  });
  await chargeCredits(services.db, { teamId: principal.teamId, apiKeyId: principal.keyId, kind: 'map', refId: id, credits: COSTS.map }).catch((err) =>
    services.log.error({ err }, 'could not record the credit of a map'),
  );
  await recordActivity(services.db, { id, teamId: principal.teamId, kind: 'map', status: 'completed', url, credits: COSTS.map, auditMetadata: auditMetadataOf(body), zeroDataRetention: false })
    .catch((err) => services.log.warn({ err }, 'could not record the activity of a map'));
  const warning = [result.warning, threat?.warning].filter(Boolean).join(' ') || undefined;
  return { id, ...result, links: result.links.filter((l) => !threatVerdict(l.url, threat)), ...(warning ? { warning } : {}) };
}

export function mapRoutes(services: Services) {
  return new Elysia({ name: 'routes/map' })
    .post(
      '/v2/map',
      async ({ body, request }) => {
        const { id, links, warning } = await mapFor(services, request, body as Record<string, any>, 'v2');
        return { success: true as const, id, links, ...(warning ? { warning } : {}) };
      },
      { body: MapBody, response: { 200: MapResponse, ...errorResponses }, detail: { summary: 'List the URLs of a site', tags: ['Map'] } },
    )
    .post(
      '/v1/map',
      async ({ body, request }) => {
        const { links, warning } = await mapFor(services, request, body as Record<string, any>, 'v1');
        return { success: true as const, links: links.map((l) => l.url), ...(warning ? { warning } : {}) };
      },
      { body: MapBody, detail: { summary: 'List the URLs of a site (v1: links as strings)', tags: ['v1'] } },
    );
}
