/**
 * `GET /v2/agent/{id}` answers (compat.md §13): status, `data` (or chat mode's `message`), `error`,
 * `model`, `effort` when set, `expiresAt`, `creditsUsed`, and Trawl's additions: `tokensUsed`,
 * `stopReason`, `stepsUsed`, `maxSteps`, `maxCredits` and `trace` (the steps in order: model turns
 * with their tokens, tool calls with their input and a one-line summary, each with its credits).
 *
 * A run still `processing` that has not changed for 20 s is checked against the queue first (at most
 * every 15 s per process): when the queue has given up on it (a worker lost twice: JOB_INTERRUPTED),
 * lost it, or finished it without the row being ended, the run is failed here, so no run stays
 * `processing` forever.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { isWaitTimeout } from '../queue/shared.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { webhookDeps } from '../crawl/webhook-deps.ts';
import { agentSteps, dropAgentData, finishAgentJob, getAgentJob, tokensOfJob, type AgentJobView } from './store.ts';
import { runSpecOf } from './worker.ts';

/** A queued run the queue does not know may simply not be added yet: give it this long, ms. */
const ADD_GRACE_MS = 60_000;
/** A run is asked about only when it has not changed for this long, ms (a model call may take a while). */
const QUIET_MS = 20_000;
/** How long one question to the queue may take, ms (its first probe answers well within it). */
const PROBE_WAIT_MS = 1_000;
/** A run is asked about at most this often per process, ms (status polls do not each pay the wait). */
const PROBE_EVERY_MS = 15_000;
const probed = new Map<string, number>();

/** Why the queue says a `processing` run is not running, or undefined when it is (or may be). */
async function lostReason(services: Services, job: AgentJobView): Promise<TrawlError | undefined> {
  const now = Date.now();
  if (now - job.updatedAt.getTime() < QUIET_MS || now - (probed.get(job.id) ?? 0) < PROBE_EVERY_MS) return undefined;
  if (probed.size > 10_000) probed.clear();
  probed.set(job.id, now);
  try {
    await services.queue.waitFor(job.id, PROBE_WAIT_MS);
    return new TrawlError('JOB_INTERRUPTED', 'The agent run ended without a result (its worker stopped). Start it again.');
  } catch (e) {
    if (isWaitTimeout(e)) return undefined;
    const err = TrawlError.wrap(e);
    if (err.code === 'JOB_NOT_FOUND') {
      if (Date.now() - job.createdAt.getTime() < ADD_GRACE_MS) return undefined;
      return new TrawlError('JOB_INTERRUPTED', 'The agent run was lost by the queue (its worker stopped). Start it again.');
    }
    return err;
  }
}

/**
 * Fails a `processing` run the queue is no longer running.
 * @returns the run as it is now
 */
export async function settleLostRun(services: Services, job: AgentJobView): Promise<AgentJobView> {
  if (job.status !== 'processing') return job;
  const error = await lostReason(services, job);
  if (!error) return job;
  const webhook = runSpecOf(job.options)?.webhook;
  const ended = await finishAgentJob(services.db, job, {
    status: 'failed',
    result: { stopReason: 'error', steps: 0, tokensUsed: await tokensOfJob(services.db, job.id) },
    error: error.toJSON(),
    event: { spec: webhook, type: 'agent.failed', success: false, error: error.message },
  });
  if (ended && webhook) kickJob(webhookDeps(services), job.id);
  return (await getAgentJob(services.db, job.id)) ?? job;
}

/** The status body of a run (read by its team). Zero data retention: the answer is shown once. */
export async function agentStatusBody(services: Services, found: AgentJobView): Promise<Record<string, unknown>> {
  const job = await settleLostRun(services, found);
  const o = job.options;
  const steps = await agentSteps(services.db, job.id);
  const r = job.result;
  const body: Record<string, unknown> = {
    success: true,
    status: job.status,
    model: o.model,
    ...(o.effort ? { effort: o.effort } : {}),
    mode: o.mode,
    expiresAt: job.expiresAt.toISOString(),
    creditsUsed: job.creditsUsed,
    tokensUsed: r?.tokensUsed ?? (await tokensOfJob(services.db, job.id)),
    maxCredits: o.maxCredits,
    maxSteps: o.maxSteps,
    stepsUsed: steps.filter((s) => s.kind === 'tool').length,
  };
  if (r?.data !== undefined) body.data = r.data;
  if (r?.message !== undefined) body.message = r.message;
  if (job.error) body.error = job.error.message;
  if (r?.stopReason) body.stopReason = r.stopReason;
  if (r?.warning) body.warning = r.warning;
  body.trace = steps.map((s) => ({
    step: s.seq, type: s.kind, ...(s.tool ? { tool: s.tool } : {}), ...(s.input !== undefined ? { input: s.input } : {}),
    ...(s.summary !== undefined ? { summary: s.summary } : {}), ok: s.ok, creditsUsed: s.credits, ...(s.kind === 'model' ? { tokens: s.tokens } : {}),
    at: s.at.toISOString(),
  }));
  if (job.zeroDataRetention && job.status !== 'processing' && (r?.data !== undefined || r?.message !== undefined)) await dropAgentData(services.db, job.id);
  return body;
}

/**
 * One item of `GET /v2/agent` (the SDK's `listAgents`): id, time, status, the analytics tags and,
 * unless zero data retention, the request (prompt, URLs, schema, model, effort). A cancelled run is
 * listed `failed`, the closest status the SDK knows here.
 */
export function agentListItem(job: AgentJobView): Record<string, unknown> {
  const o = job.options;
  const firstUrl = Array.isArray(o.urls) && o.urls.length ? String(o.urls[0]) : '';
  return {
    id: job.id,
    createdAt: job.createdAt.toISOString(),
    targetHint: job.zeroDataRetention ? '' : firstUrl || String(o.prompt ?? '').slice(0, 80),
    origin: typeof o.origin === 'string' ? o.origin : 'api',
    ...(typeof o.integration === 'string' ? { integration: o.integration } : {}),
    settings: { hidden: false, starred: false },
    status: job.status === 'cancelled' ? 'failed' : job.status,
    options: {
      ...(job.zeroDataRetention ? { prompt: '' } : { prompt: o.prompt, ...(o.urls?.length ? { urls: o.urls } : {}), ...(o.schema ? { schema: o.schema } : {}) }),
      model: o.model,
      ...(o.effort ? { effort: o.effort } : {}),
    },
  };
}
