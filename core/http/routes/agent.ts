/**
 * Agent endpoints (compat.md §13, issue 19): `POST /v2/agent` starts a run (async; 503 naming what to
 * set when no model is configured), `GET /v2/agent/{id}` its status, data and trace, `DELETE
 * /v2/agent/{id}` cancels it, `GET /v2/agent` lists the team's runs. Key restriction group `agent`. The run is core/agent's; these handlers
 * validate, admit and answer. Order: 400 (the body), 401/403/429/402 (admission), 503 (no model), so
 * a refused request never reaches the model.
 */
import { Elysia } from 'elysia';
import { Type, type Static } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { assertFetchable } from '../../net/address.ts';
import { resolveWebhook } from '../../webhooks/spec.ts';
import { resolveThreatPolicy } from '../../threat/team.ts';
import { assertThreatAllowed } from '../../threat/check.ts';
import { auditMetadataOf } from '../../audit/activity.ts';
import { resolveAgentRequest } from '../../agent/options.ts';
import { cancelAgentRun, startAgentRun } from '../../agent/service.ts';
import { agentJobForTeam, listAgentJobs } from '../../agent/store.ts';
import { agentListItem, agentStatusBody } from '../../agent/status.ts';
import { publicBaseUrl } from '../base-url.ts';
import { errorResponses } from '../models/common.ts';
import { AgentBody, AgentCancelled, AgentListModel, AgentStarted, AgentStatusModel } from '../models/agent.ts';
import { admit } from '../guard.ts';

const Params = Type.Object({ id: Type.String() });
const tags = ['Agent'];
/** Runs per page of `GET /v2/agent`. */
const LIST_PAGE = 50;

export function agentRoutes(services: Services) {
  return new Elysia({ name: 'routes/agent' })
    .post(
      '/v2/agent',
      async ({ body, request }) => {
        const b = body as Record<string, any>;
        const agent = resolveAgentRequest(b);
        const webhook = resolveWebhook(b.webhook);
        const principal = await admit(services, request, { group: 'agent', credits: 1, zeroDataRetention: agent.zeroDataRetention });
        if (!services.config.llm) {
          throw new TrawlError('BACKEND_UNAVAILABLE', 'The agent needs a language model and none is configured: set OPENAI_BASE_URL (any OpenAI-compatible server) and MODEL_NAME, or OPENAI_API_KEY for OpenAI, or OLLAMA_BASE_URL and MODEL_NAME.');
        }
        const threat = await resolveThreatPolicy(services, principal.teamId, b.threatProtection);
        for (const url of agent.urls) {
          assertThreatAllowed(url, threat);
          await assertFetchable(url, services.config.targets);
        }
        const tags: Record<string, string> = {};
        if (typeof b.origin === 'string') tags.origin = b.origin.slice(0, 100);
        if (typeof b.integration === 'string') tags.integration = b.integration.slice(0, 100);
        const id = await startAgentRun(services, {
          teamId: principal.teamId, keyId: principal.keyId, request: agent, webhook, threat, auditMetadata: auditMetadataOf(b), tags,
        });
        return { success: true as const, id };
      },
      {
        body: AgentBody,
        response: { 200: AgentStarted, ...errorResponses, 503: errorResponses[500] },
        detail: {
          summary: 'Start an agent run',
          tags,
          description: 'The configured model searches, maps, scrapes and extracts until it can answer the prompt (by the schema when given), within maxCredits and the step budget of effort.',
        },
      },
    )
    .get(
      '/v2/agent',
      async ({ request, query }) => {
        const principal = await admit(services, request, { group: 'agent' });
        const raw = (query as Record<string, string | undefined>).before;
        if (raw !== undefined && !/^\d{1,15}$/.test(raw)) throw new TrawlError('BAD_REQUEST', 'before must be a unix time in milliseconds (an integer).');
        const before = raw === undefined ? undefined : Number(raw);
        const { jobs, more } = await listAgentJobs(services.db, principal.teamId, LIST_PAGE, before);
        const next = more ? `${publicBaseUrl(services.config, request)}/v2/agent?before=${jobs.at(-1)!.createdAt.getTime()}` : undefined;
        return { success: true as const, agents: jobs.map(agentListItem), ...(next ? { next } : {}) } as Static<typeof AgentListModel>;
      },
      {
        response: { 200: AgentListModel, ...errorResponses },
        detail: { summary: 'The team\'s agent runs, newest first', tags, description: `${LIST_PAGE} a page; \`next\` pages on with \`before\`.` },
      },
    )
    .get(
      '/v2/agent/:id',
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'agent' });
        const job = await agentJobForTeam(services.db, params.id, principal.teamId);
        return (await agentStatusBody(services, job)) as Static<typeof AgentStatusModel>;
      },
      {
        params: Params,
        response: { 200: AgentStatusModel, ...errorResponses },
        detail: { summary: 'Agent run status, data and trace', tags },
      },
    )
    .delete(
      '/v2/agent/:id',
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'agent' });
        const job = await agentJobForTeam(services.db, params.id, principal.teamId);
        await cancelAgentRun(services, job);
        return { success: true as const };
      },
      {
        params: Params,
        response: { 200: AgentCancelled, 409: errorResponses[400], ...errorResponses },
        detail: { summary: 'Cancel an agent run', tags, description: 'Stops the run within about a second; its status becomes cancelled.' },
      },
    );
}
