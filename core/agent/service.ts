/**
 * Starting and cancelling agent runs (issue 19), for the routes: no HTTP types here. A run is
 * written as a `jobs` row (its public options, and under `options.run` what the worker needs), then
 * queued on `agent` with the run's id as the queue job id, so any worker process can take it.
 * A cancel ends the row `cancelled` with its `agent.cancelled` event and aborts the queue job; the
 * worker also notices the row within `CANCEL_POLL_MS` wherever it runs.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { webhookDeps } from '../crawl/webhook-deps.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';
import type { ThreatPolicy } from '../threat/policy.ts';
import type { AgentRequest } from './options.ts';
import { createAgentJob, finishAgentJob, getAgentJob, spentSoFar, tokensOfJob, type AgentJobView } from './store.ts';
import { AGENT_QUEUE, runSpecOf, type AgentJobData, type AgentRunSpec } from './worker.ts';

/** What a start needs besides the request. */
export interface AgentStart {
  teamId: string;
  keyId?: string;
  request: AgentRequest;
  webhook?: WebhookSpec;
  threat?: ThreatPolicy;
  auditMetadata?: { username: string };
  /** Analytics tags sent by SDKs (`origin`, `integration`), recorded with the run. */
  tags?: Record<string, string>;
}

/**
 * Records and queues a run.
 * @returns the run id
 */
export async function startAgentRun(services: Services, start: AgentStart): Promise<string> {
  const id = newId();
  const r = start.request;
  const run: AgentRunSpec = { request: r, keyId: start.keyId, webhook: start.webhook, threat: start.threat, auditMetadata: start.auditMetadata };
  const options: Record<string, unknown> = {
    model: r.model, effort: r.effort, mode: r.mode, maxCredits: r.maxCredits, maxSteps: r.maxSteps,
    strictConstrainToURLs: r.strictConstrainToURLs, ...start.tags,
    // Zero data retention: no prompt, URL or schema outside `run`, which is removed when the run ends.
    ...(r.zeroDataRetention ? {} : { prompt: r.prompt, urls: r.urls, schema: r.schema }),
    run,
  };
  await createAgentJob(services.db, { id, teamId: start.teamId, options, zeroDataRetention: r.zeroDataRetention });
  const data: AgentJobData = { id };
  // A lost worker runs the job once more (the budgets count what was spent), then JOB_INTERRUPTED.
  await services.queue.add(AGENT_QUEUE, 'agent', data, { id });
  return id;
}

/**
 * Cancels a run. Cancelling a cancelled run again is fine.
 * @throws TrawlError CONFLICT when the run has already completed or failed
 */
export async function cancelAgentRun(services: Services, job: AgentJobView): Promise<void> {
  if (job.status === 'cancelled') return;
  if (job.status !== 'processing') throw new TrawlError('CONFLICT', `The agent run has already ${job.status === 'completed' ? 'completed' : 'failed'}; there is nothing to cancel.`);
  const webhook = runSpecOf(job.options)?.webhook;
  const spent = await spentSoFar(services.db, job.id);
  const ended = await finishAgentJob(services.db, job, {
    status: 'cancelled',
    result: { stopReason: 'cancelled', steps: spent.toolCalls, tokensUsed: await tokensOfJob(services.db, job.id) },
    event: { spec: webhook, type: 'agent.cancelled', success: true },
  });
  await services.queue.cancel(job.id).catch(() => false);
  if (ended && webhook) kickJob(webhookDeps(services), job.id);
  if (!ended) {
    const status = (await getAgentJob(services.db, job.id))?.status;
    if (status === 'completed' || status === 'failed') throw new TrawlError('CONFLICT', `The agent run has already ${status}; there is nothing to cancel.`);
  }
}
