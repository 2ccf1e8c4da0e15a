/**
 * `GET /v2/team/activity` (issue 17): the caller's team's work, newest first: kind, time, status,
 * credits, URL (left out for zero data retention work) and the request's `auditMetadata`. Paged:
 * `limit` (1–100, default 50) and an absolute `next` URL while more items exist. Any valid key of the
 * team may read it (an account endpoint, like usage); keyless callers get 401.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { admit } from '../guard.ts';
import { errorResponses } from '../models/common.ts';
import { publicBaseUrl } from '../base-url.ts';
import { decodeCursor, listActivity } from '../../audit/activity.ts';

const ActivityItem = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'scrape, crawl, batch_scrape, map, search, parse or agent' }),
  status: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  creditsUsed: Type.Number(),
  url: Type.Optional(Type.String({ description: 'Absent for zero data retention work' })),
  zeroDataRetention: Type.Boolean(),
  auditMetadata: Type.Optional(Type.Object({ username: Type.String() })),
});
const ActivityPage = Type.Object({ success: Type.Literal(true), data: Type.Array(ActivityItem), next: Type.Optional(Type.String()) });
const ActivityQuery = Type.Object({ limit: Type.Optional(Type.String()), cursor: Type.Optional(Type.String()) }, { additionalProperties: true });

export function activityRoutes(services: Services) {
  return new Elysia({ name: 'routes/activity' }).get(
    '/v2/team/activity',
    async ({ request, query }) => {
      const { teamId } = await admit(services, request, { group: 'account' });
      const limit = query.limit === undefined ? 50 : Number(query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new TrawlError('BAD_REQUEST', '"limit" must be an integer from 1 to 100.');
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (query.cursor !== undefined && !after) throw new TrawlError('BAD_REQUEST', '"cursor" is not a cursor of this list; use the "next" URL as given.');
      const page = await listActivity(services.db, teamId, limit, after);
      const next = page.next ? `${publicBaseUrl(services.config, request)}/v2/team/activity?limit=${limit}&cursor=${page.next}` : undefined;
      return { success: true as const, data: page.items, ...(next ? { next } : {}) };
    },
    {
      query: ActivityQuery,
      response: { 200: ActivityPage, ...errorResponses },
      detail: { summary: "The team's jobs with their status, credits and audit metadata", tags: ['Team'] },
    },
  );
}
