/**
 * Team, usage and concurrency endpoints (compat.md §16), under `/v2` and `/v1` (the SDK's v1 client
 * uses the `/v1/team/*` paths): credit and token usage with their monthly history, the team's queue
 * status and its concurrency. Always reachable with any valid key, whatever its restrictions
 * (interface.md Authentication 4); every number is finite, never null.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { admit } from '../guard.ts';
import { errorResponses } from '../models/common.ts';
import { creditUsage, tokenUsage, usageHistory } from '../../credits/usage.ts';
import { teamSettings } from '../../auth/teams.ts';
import { limitsFor } from '../../limits/index.ts';
import { webhookSecretRoutes } from './webhook-secret.ts';

const Period = (unit: 'Credits' | 'Tokens') =>
  Type.Object({
    startDate: Type.String(),
    endDate: Type.String(),
    apiKey: Type.Union([Type.String(), Type.Null()]),
    [`total${unit}`]: Type.Number(),
    [`${unit.toLowerCase()}Used`]: Type.Number(),
  });

const Models = {
  credit: Type.Object({
    success: Type.Literal(true),
    data: Type.Object({ remainingCredits: Type.Number(), planCredits: Type.Number(), billingPeriodStart: Type.String(), billingPeriodEnd: Type.String() }),
  }),
  token: Type.Object({
    success: Type.Literal(true),
    data: Type.Object({ remainingTokens: Type.Number(), planTokens: Type.Number(), billingPeriodStart: Type.String(), billingPeriodEnd: Type.String() }),
  }),
  creditHistory: Type.Object({ success: Type.Literal(true), periods: Type.Array(Period('Credits')) }),
  tokenHistory: Type.Object({ success: Type.Literal(true), periods: Type.Array(Period('Tokens')) }),
  queue: Type.Object({
    success: Type.Literal(true),
    jobsInQueue: Type.Integer(),
    activeJobsInQueue: Type.Integer(),
    waitingJobsInQueue: Type.Integer(),
    maxConcurrency: Type.Integer(),
    mostRecentSuccess: Type.Union([Type.String(), Type.Null()]),
  }),
  concurrency: Type.Object({ success: Type.Literal(true), concurrency: Type.Integer(), maxConcurrency: Type.Integer() }),
};

const History = Type.Object({ byApiKey: Type.Optional(Type.String()) }, { additionalProperties: true });

/** Routes of one version prefix (`/v2` or `/v1`). */
function versioned(services: Services, v: 'v1' | 'v2') {
  const db = services.db;
  const account = (request: Request) => admit(services, request, { group: 'account' });
  const maxConcurrency = async (teamId: string) =>
    (await teamSettings(db, teamId, services.config.accounts.authCacheMs))?.concurrency ?? services.config.team.concurrency;
  const tags = ['Team'];
  return new Elysia({ name: `routes/team/${v}` })
    .get(`/${v}/team/credit-usage`, async ({ request }) => ({ success: true as const, data: await creditUsage(db, (await account(request)).teamId) }), {
      response: { 200: Models.credit, ...errorResponses },
      detail: { summary: 'Remaining and plan credits of the team', tags },
    })
    .get(`/${v}/team/token-usage`, async ({ request }) => ({ success: true as const, data: await tokenUsage(db, (await account(request)).teamId) }), {
      response: { 200: Models.token, ...errorResponses },
      detail: { summary: 'Remaining and plan tokens of the team', tags },
    })
    .get(
      `/${v}/team/credit-usage/historical`,
      async ({ request, query }) => {
        const { teamId } = await account(request);
        const rows = await usageHistory(db, teamId, 'credits', query.byApiKey === 'true');
        return { success: true as const, periods: rows.map(({ total, ...p }) => ({ ...p, totalCredits: total, creditsUsed: total })) };
      },
      { query: History, response: { 200: Models.creditHistory, ...errorResponses }, detail: { summary: 'Credits used per month', tags } },
    )
    .get(
      `/${v}/team/token-usage/historical`,
      async ({ request, query }) => {
        const { teamId } = await account(request);
        const rows = await usageHistory(db, teamId, 'tokens', query.byApiKey === 'true');
        return { success: true as const, periods: rows.map(({ total, ...p }) => ({ ...p, totalTokens: total, tokensUsed: total })) };
      },
      { query: History, response: { 200: Models.tokenHistory, ...errorResponses }, detail: { summary: 'Tokens used per month', tags } },
    )
    .get(
      `/${v}/team/queue-status`,
      async ({ request }) => {
        const { teamId } = await account(request);
        const { slots } = limitsFor(services);
        const [active, waiting, max, last] = await Promise.all([
          slots.active(teamId),
          slots.waiting(teamId),
          maxConcurrency(teamId),
          db.query<{ at: Date | null }>("SELECT max(created_at) AS at FROM credit_ledger WHERE team_id = $1 AND kind = 'scrape'", [teamId]),
        ]);
        const at = last[0]?.at;
        return {
          success: true as const,
          jobsInQueue: active + waiting,
          activeJobsInQueue: active,
          waitingJobsInQueue: waiting,
          maxConcurrency: max,
          mostRecentSuccess: at ? new Date(at).toISOString() : null,
        };
      },
      { response: { 200: Models.queue, ...errorResponses }, detail: { summary: "The team's scrapes running and waiting for a slot", tags } },
    )
    .get(
      `/${v}/concurrency-check`,
      async ({ request }) => {
        const { teamId } = await account(request);
        const [concurrency, max] = await Promise.all([limitsFor(services).slots.active(teamId), maxConcurrency(teamId)]);
        return { success: true as const, concurrency, maxConcurrency: max };
      },
      { response: { 200: Models.concurrency, ...errorResponses }, detail: { summary: 'Scrapes running now and the team limit', tags } },
    );
}

/** `/v2/team/*`, `/v2/concurrency-check` and their `/v1` forms, and the team's webhook secret (admin keys). */
export function teamRoutes(services: Services) {
  return new Elysia({ name: 'routes/team' }).use(versioned(services, 'v2')).use(versioned(services, 'v1')).use(webhookSecretRoutes(services));
}
