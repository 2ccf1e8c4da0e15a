/**
 * The agent worker (issue 19): runs queued agent runs (queue `agent`) on any worker process. The
 * queue message carries only the run id; the request is in the run's `jobs` row (removed from it at
 * the end under zero data retention). The worker:
 * - binds the model to the team and the run (core/llm/service.ts: tokens counted for both);
 * - watches the row every `CANCEL_POLL_MS`, so a cancel from any API process stops the loop (the
 *   model call or tool in flight is aborted) within about a second;
 * - records each step (trace), charges model turns (ledger kind `agent`), and sends the webhook
 *   events `agent.started`, `agent.action` (one per tool call), `agent.completed|failed`
 *   (`agent.cancelled` is written by the cancel itself);
 * - ends the row `completed` (answered) or `failed` (a budget, the time limit, a model error), with
 *   `stopReason`. A run whose worker dies is run again by the queue (the budgets count what the first
 *   attempt spent) and, after a second loss, fails JOB_INTERRUPTED; core/agent/status.ts notices a
 *   run the queue gave up on, so no run stays `processing`.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { modelFor } from '../llm/service.ts';
import { chargeCredits, teamBalance } from '../credits/ledger.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { webhookDeps } from '../crawl/webhook-deps.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';
import type { ThreatPolicy } from '../threat/policy.ts';
import { recordActivity } from '../audit/activity.ts';
import { runAgentLoop, type LoopOutcome } from './loop.ts';
import { toolsFor } from './tools.ts';
import type { AgentRequest } from './options.ts';
import {
  agentJobStatus, appendStep, finishAgentJob, getAgentJob, recordAgentEvent, spentSoFar, tokensOfJob, type AgentResult,
} from './store.ts';

export const AGENT_QUEUE = 'agent';
/** How often a running loop reads its row to notice a cancel, ms. */
export const CANCEL_POLL_MS = 500;

/** The queue message of a run. */
export interface AgentJobData {
  id: string;
}

/** What the row's `options.run` holds for the worker (not shown in status). */
export interface AgentRunSpec {
  request: AgentRequest;
  keyId?: string;
  webhook?: WebhookSpec;
  threat?: ThreatPolicy;
  auditMetadata?: { username: string };
}

/** The row's public options plus the run spec. */
export function runSpecOf(options: Record<string, any>): AgentRunSpec | undefined {
  return options.run as AgentRunSpec | undefined;
}

function budgetError(outcome: LoopOutcome, r: AgentRequest): TrawlError {
  const stopped = `The agent stopped before answering: ${outcome.note}.`;
  const details = { stopReason: outcome.reason };
  if (outcome.reason === 'no_credits') return new TrawlError('PAYMENT_REQUIRED', `${stopped} Add credits to the team to run agents.`, { details });
  if (outcome.reason === 'max_credits') return new TrawlError('AGENT_MAX_CREDITS', `${stopped} Raise maxCredits to let it go further.`, { details });
  if (outcome.reason === 'max_steps') {
    const hint = r.effort === 'high' ? 'Narrow the prompt or give the URLs to start from.' : 'Use effort "high" for more steps, or narrow the prompt.';
    return new TrawlError('AGENT_MAX_STEPS', `${stopped} ${hint}`, { details });
  }
  return new TrawlError('AGENT_TIMEOUT', `${stopped} Narrow the prompt or give the URLs to start from.`, { details });
}

/**
 * Runs one agent run (worker side).
 * @throws the loop's error when the queue aborted the job for a shutdown (so the queue runs it again)
 */
export async function handleAgentJob(services: Services, data: AgentJobData, queueSignal: AbortSignal): Promise<null> {
  const job = await getAgentJob(services.db, data.id);
  if (!job || job.status !== 'processing') return null;
  const spec = runSpecOf(job.options);
  const ids = { id: job.id, teamId: job.teamId };
  const log = services.log.child({ component: 'agent', jobId: job.id });
  const hooks = webhookDeps(services);
  const announce = () => spec?.webhook && kickJob(hooks, job.id);
  const fail = async (error: TrawlError, result?: AgentResult) => {
    await finishAgentJob(services.db, ids, {
      status: 'failed', result, error: error.toJSON(),
      event: { spec: spec?.webhook, type: 'agent.failed', success: false, error: error.message },
    });
    announce();
  };
  if (!spec) {
    await fail(new TrawlError('JOB_INTERRUPTED', 'The agent run lost its request (its data was removed); start it again.'));
    return null;
  }
  const r = spec.request;
  const model = modelFor(services, { teamId: job.teamId, apiKeyId: spec.keyId, jobId: job.id });
  if (!model) {
    await fail(new TrawlError('BACKEND_UNAVAILABLE', 'No language model is configured for agent runs: set OPENAI_BASE_URL (and MODEL_NAME), or OLLAMA_BASE_URL and MODEL_NAME.'));
    return null;
  }
  const spent = await spentSoFar(services.db, job.id);
  if (spent.turns === 0) {
    await services.db.transaction((tx) => recordAgentEvent(tx, ids, { spec: spec.webhook, type: 'agent.started', success: true }));
    announce();
  }

  const controller = new AbortController();
  const cancelled = new TrawlError('SCRAPE_JOB_CANCELLED', 'The agent run was cancelled.');
  const onQueueAbort = () => controller.abort(queueSignal.reason ?? cancelled);
  queueSignal.addEventListener('abort', onQueueAbort, { once: true });
  const poll = setInterval(() => {
    agentJobStatus(services.db, job.id)
      .then((s) => s !== 'processing' && controller.abort(cancelled))
      .catch((err) => log.warn({ err }, 'could not read the agent run status'));
  }, CANCEL_POLL_MS);

  let outcome: LoopOutcome;
  try {
    outcome = await runAgentLoop({
      model, request: r, tools: toolsFor(r), signal: controller.signal, spent,
      balance: async () => (await teamBalance(services.db, job.teamId)) ?? 0,
      toolContext: { services, jobId: job.id, teamId: job.teamId, keyId: spec.keyId, request: r, threat: spec.threat, signal: controller.signal, log },
      onStep: async (step) => {
        const seq = await appendStep(services.db, job.id, {
          kind: step.kind, tool: step.tool, ok: step.ok, credits: step.credits, tokens: step.tokens,
          ...(r.zeroDataRetention ? {} : { input: step.input, summary: step.summary }),
        });
        if (step.kind === 'model') {
          await chargeCredits(services.db, { teamId: job.teamId, apiKeyId: spec.keyId, jobId: job.id, kind: 'agent', refId: `${job.id}:${seq}`, credits: step.credits })
            .catch((err) => log.error({ err }, 'could not charge the credits of an agent model turn'));
        } else if (spec.webhook) {
          const action = { step: seq, tool: step.tool, ok: step.ok, creditsUsed: step.credits, ...(r.zeroDataRetention ? {} : { input: step.input, summary: step.summary }) };
          await services.db.transaction((tx) => recordAgentEvent(tx, ids, { spec: spec.webhook, type: 'agent.action', success: step.ok, data: [action] }));
          announce();
        }
        return seq;
      },
    });
  } catch (e) {
    const status = await agentJobStatus(services.db, job.id).catch(() => undefined);
    if (status !== 'processing') return null; // cancelled: the cancel wrote the row and its event
    if (queueSignal.aborted) throw e; // the worker is shutting down: the queue runs the job again
    const error = TrawlError.wrap(e);
    log.warn({ code: error.code, err: error.message }, 'agent run failed');
    const tokensUsed = await tokensOfJob(services.db, job.id);
    await fail(error, { stopReason: 'error', steps: (await spentSoFar(services.db, job.id)).toolCalls, tokensUsed });
    return null;
  } finally {
    clearInterval(poll);
    queueSignal.removeEventListener('abort', onQueueAbort);
  }

  const tokensUsed = await tokensOfJob(services.db, job.id);
  const result: AgentResult = { stopReason: outcome.reason, steps: outcome.toolCalls, tokensUsed };
  if (outcome.reason === 'answered') {
    if (outcome.data !== undefined) result.data = outcome.data;
    if (outcome.message !== undefined) result.message = outcome.message;
    const payload = r.mode === 'chat' ? { message: outcome.message } : { data: outcome.data };
    await finishAgentJob(services.db, ids, {
      status: 'completed', result,
      event: { spec: spec.webhook, type: 'agent.completed', success: true, data: [{ ...payload, creditsUsed: outcome.credits, tokensUsed }] },
    });
    announce();
  } else {
    await fail(budgetError(outcome, r), result);
  }
  await recordActivity(services.db, {
    id: job.id, teamId: job.teamId, kind: 'agent', status: outcome.reason === 'answered' ? 'completed' : 'failed',
    credits: outcome.credits, auditMetadata: spec.auditMetadata, zeroDataRetention: r.zeroDataRetention,
  }).catch((err) => log.warn({ err }, 'could not record the activity of an agent run'));
  return null;
}

/** Registers the agent worker on the queue. */
export async function startAgentWorker(services: Services): Promise<void> {
  await services.queue.process<AgentJobData, null>(AGENT_QUEUE, (job, signal) => handleAgentJob(services, job.data, signal), {
    concurrency: services.config.workerConcurrency,
  });
}
