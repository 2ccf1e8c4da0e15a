/**
 * Search routes (interface.md "POST /v2/search", "POST /v2/search/{jobId}/feedback"; compat.md §11):
 * `POST /v2/search` (keyless allowed), feedback on a search job, the generic `POST /v2/feedback`, and
 * the research paper endpoints (search-research.ts). The work is in core/search; these handlers
 * validate, admit, and answer.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { admit } from '../guard.ts';
import { errorResponses } from '../models/common.ts';
import { EndpointFeedbackBody, FeedbackBody, FeedbackResponse, SearchResponse, searchBodySchema } from '../models/search.ts';
import { resolveSearchRequest } from '../../search/request.ts';
import { runSearch } from '../../search/run.ts';
import { submitFeedback } from '../../search/feedback.ts';
import { researchRoutes } from './search-research.ts';
import { resolveThreatPolicy } from '../../threat/team.ts';

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

export function searchRoutes(services: Services) {
  const SearchBody = searchBodySchema([...services.formats.values()]);
  return new Elysia({ name: 'routes/search' })
    .post(
      '/v2/search',
      async ({ body, request }) => {
        const resolved = resolveSearchRequest(body as Record<string, unknown>, services.formats, {
          researchSwitchDate: services.config.researchSwitchDate,
        });
        const principal = await admit(services, request, {
          group: 'search',
          keyless: true,
          formats: resolved.scrape?.formats,
          actions: resolved.scrape?.actions,
          credits: 1,
          zeroDataRetention: resolved.enterprise.includes('zdr'),
        });
        const b = body as { threatProtection?: unknown; scrapeOptions?: { threatProtection?: unknown } };
        if (resolved.scrape) resolved.scrape.threatProtection = await resolveThreatPolicy(services, principal.teamId, b.scrapeOptions?.threatProtection ?? b.threatProtection);
        if (resolved.scrape?.threatProtection?.warning) resolved.warnings.push(resolved.scrape.threatProtection.warning);
        return json(await runSearch(services, { teamId: principal.teamId, keyId: principal.keyId }, resolved, request.signal));
      },
      {
        body: SearchBody,
        response: { 200: SearchResponse, ...errorResponses, 503: errorResponses[500] },
        detail: {
          summary: 'Search the web',
          tags: ['Search'],
          description:
            'Runs a query through the configured search providers (SearXNG, Brave, Serper, Google Programmable Search, and the local index of scraped pages) and returns results grouped by source. With scrapeOptions every web and news result is scraped.',
        },
      },
    )
    .post(
      '/v2/search/:jobId/feedback',
      async ({ params, body, request }) => {
        const principal = await admit(services, request, { group: 'search' });
        return json(await submitFeedback(services, principal, 'search', params.jobId, body as Record<string, unknown>));
      },
      {
        params: Type.Object({ jobId: Type.String() }),
        body: FeedbackBody,
        response: { 200: FeedbackResponse, ...errorResponses },
        detail: { summary: 'Feedback on a search', tags: ['Search'], description: 'The first submission for a search job refunds 1 credit, within the team\'s daily cap.' },
      },
    )
    .post(
      '/v2/feedback',
      async ({ body, request }) => {
        const b = body as Record<string, unknown> & { endpoint: 'search' | 'scrape' | 'parse' | 'map'; jobId: string };
        const principal = await admit(services, request, { group: b.endpoint === 'search' ? 'search' : b.endpoint });
        const { endpoint, jobId, ...rest } = b;
        return json(await submitFeedback(services, principal, endpoint, jobId, rest));
      },
      {
        body: EndpointFeedbackBody,
        response: { 200: FeedbackResponse, ...errorResponses },
        detail: { summary: 'Feedback on a search, scrape, parse or map job', tags: ['Search'] },
      },
    )
    .use(researchRoutes(services));
}
