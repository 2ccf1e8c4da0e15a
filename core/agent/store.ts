/**
 * Agent runs in the database (issue 19): a run is a `jobs` row of kind `agent` (status
 * `processing` → `completed` | `failed` | `cancelled`, the public options, the result, the error,
 * credits, expiry 24 h after it ends) and its trace is `agent_steps` (migration 0018). Status changes
 * happen only from `processing` (`where status = 'processing'`), so a cancel and the worker's own end
 * cannot overwrite each other; each change writes its webhook event in the same transaction
 * (core/webhooks/outbox.ts). Zero data retention: no prompt, URL or schema in the options, no step
 * input or note, and the result is dropped once it has been read.
 */
import type { Database, Queryable } from '../db/client.ts';
import { TrawlError, type SerializedError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';

/** How long a run's results are kept after it ends, ms (interface.md Limits: 24 h). */
export const AGENT_RETENTION_MS = 24 * 60 * 60_000;

export type AgentStatus = 'processing' | 'completed' | 'failed' | 'cancelled';
/** Why a run stopped. */
export type StopReason = 'answered' | 'max_credits' | 'no_credits' | 'max_steps' | 'timeout' | 'cancelled' | 'error';

/** What a finished run keeps besides its status. */
export interface AgentResult {
  data?: unknown;
  /** Chat mode's text answer. */
  message?: string;
  stopReason: StopReason;
  /** Tool calls made. */
  steps: number;
  /** Model tokens of the run (its extract pages' included). */
  tokensUsed: number;
  warning?: string;
}

/** An agent run as the routes and the worker read it. */
export interface AgentJobView {
  id: string;
  teamId: string;
  status: AgentStatus;
  options: Record<string, any>;
  result?: AgentResult;
  error?: SerializedError;
  creditsUsed: number;
  zeroDataRetention: boolean;
  createdAt: Date;
  /** Last change: the start, each step, the end. */
  updatedAt: Date;
  completedAt?: Date;
  expiresAt: Date;
}

/** One step of the trace. */
export interface AgentStep {
  seq: number;
  kind: 'model' | 'tool';
  tool?: string;
  input?: unknown;
  summary?: string;
  ok: boolean;
  credits: number;
  tokens: number;
  at: Date;
}

function view(r: Record<string, any>): AgentJobView {
  return {
    id: r.id,
    teamId: r.team_id,
    status: r.status,
    options: r.options ?? {},
    result: r.result ?? undefined,
    error: r.error ?? undefined,
    creditsUsed: Number(r.credits_used),
    zeroDataRetention: Boolean(r.zero_data_retention),
    createdAt: r.created_at,
    updatedAt: r.updated_at ?? r.created_at,
    completedAt: r.completed_at ?? undefined,
    expiresAt: r.expires_at,
  };
}

/** Inserts a new run (status `processing`), expiring 24 h from now until it ends. */
export async function createAgentJob(db: Queryable, job: { id: string; teamId: string; options: Record<string, unknown>; zeroDataRetention: boolean }): Promise<void> {
  await db.query(
    `insert into jobs (id, team_id, kind, status, options, zero_data_retention, expires_at) values ($1, $2, 'agent', 'processing', $3, $4, $5)`,
    [job.id, job.teamId, job.options, job.zeroDataRetention, new Date(Date.now() + AGENT_RETENTION_MS)],
  );
}

/** A run by id, or undefined. */
export async function getAgentJob(db: Queryable, id: string): Promise<AgentJobView | undefined> {
  if (!isUuid(id)) return undefined;
  const [r] = await db.query(`select * from jobs where id = $1 and kind = 'agent'`, [id.toLowerCase()]);
  return r ? view(r) : undefined;
}

/**
 * A run read on behalf of a team (compat.md §1.1).
 * @throws TrawlError JOB_NOT_FOUND (unknown or malformed id, another kind of job), FORBIDDEN (another
 *         team's run), JOB_EXPIRED (past its 24 h retention)
 */
export async function agentJobForTeam(db: Queryable, id: string, teamId: string): Promise<AgentJobView> {
  const job = await getAgentJob(db, id);
  if (!job) throw new TrawlError('JOB_NOT_FOUND', 'Agent job not found');
  if (job.teamId !== teamId) throw new TrawlError('FORBIDDEN', 'Forbidden: this agent job belongs to another team');
  if (job.expiresAt.getTime() < Date.now()) throw new TrawlError('JOB_EXPIRED', 'Agent job expired: results are kept 24 hours');
  return job;
}

/** The run's status as stored (cheap; the worker polls it to notice a cancel). */
export async function agentJobStatus(db: Queryable, id: string): Promise<AgentStatus | undefined> {
  const [r] = await db.query<{ status: AgentStatus }>(`select status from jobs where id = $1 and kind = 'agent'`, [id]);
  return r?.status;
}

/**
 * Appends a step to the trace and adds its credits to the run.
 * @returns the step's number (1-based)
 */
export async function appendStep(db: Database, jobId: string, step: Omit<AgentStep, 'seq' | 'at'>): Promise<number> {
  return db.transaction(async (tx) => {
    const [r] = await tx.query<{ seq: number }>(
      `insert into agent_steps (job_id, seq, kind, tool, input, note, ok, credits, tokens)
       select $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8 from agent_steps where job_id = $1 returning seq`,
      [jobId, step.kind, step.tool ?? null, step.input ?? null, step.summary?.slice(0, 500) ?? null, step.ok, Math.round(step.credits), Math.round(step.tokens)],
    );
    await tx.query(`update jobs set credits_used = credits_used + $2, updated_at = now() where id = $1`, [jobId, Math.round(step.credits)]);
    return Number(r!.seq);
  });
}

/** The run's trace, in order. */
export async function agentSteps(db: Queryable, jobId: string): Promise<AgentStep[]> {
  const rows = await db.query(`select * from agent_steps where job_id = $1 order by seq`, [jobId]);
  return rows.map((r) => ({
    seq: Number(r.seq), kind: r.kind, tool: r.tool ?? undefined, input: r.input ?? undefined, summary: r.note ?? undefined,
    ok: Boolean(r.ok), credits: Number(r.credits), tokens: Number(r.tokens), at: r.created_at,
  }));
}

/** Steps already made by a run: tool calls and credits (a run resumed after a lost worker keeps its budgets). */
export async function spentSoFar(db: Queryable, jobId: string): Promise<{ toolCalls: number; credits: number; turns: number }> {
  const [r] = await db.query<{ tools: number; credits: number; turns: number }>(
    `select count(*) filter (where kind = 'tool')::int as tools, count(*) filter (where kind = 'model')::int as turns,
            coalesce(sum(credits), 0)::int as credits from agent_steps where job_id = $1`,
    [jobId],
  );
  return { toolCalls: Number(r?.tools ?? 0), credits: Number(r?.credits ?? 0), turns: Number(r?.turns ?? 0) };
}

/** Model tokens recorded for the run (core/llm/usage.ts rows carrying its id). */
export async function tokensOfJob(db: Queryable, jobId: string): Promise<number> {
  const [r] = await db.query<{ t: number }>(`select coalesce(sum(prompt_tokens + completion_tokens), 0)::bigint as t from model_usage where job_id = $1`, [jobId]);
  return Number(r?.t ?? 0);
}

/** A webhook event to write with a status change. */
export interface AgentEvent {
  spec?: WebhookSpec;
  type: string;
  success: boolean;
  data?: unknown[];
  error?: string;
}

/** Writes an event row (no-op without a webhook or when its `events` leave it out). */
export async function recordAgentEvent(tx: Queryable, job: { id: string; teamId: string }, e: AgentEvent): Promise<boolean> {
  return recordEvent(tx, e.spec, {
    type: e.type, jobId: job.id, teamId: job.teamId, success: e.success, error: e.error,
    documents: e.data?.map((d) => JSON.stringify(d)),
  });
}

/**
 * Ends a run that is still `processing` (under zero data retention its request, `options.run`, goes).
 * @returns false when it had ended already (a cancel won): nothing is written then
 */
export async function finishAgentJob(
  db: Database,
  job: { id: string; teamId: string },
  end: { status: Exclude<AgentStatus, 'processing'>; result?: AgentResult; error?: SerializedError; event?: AgentEvent },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `update jobs set status = $2, result = $3, error = $4, completed_at = now(), updated_at = now(), expires_at = $5,
         options = CASE WHEN zero_data_retention THEN options - 'run' ELSE options END
       where id = $1 and kind = 'agent' and status = 'processing' returning id`,
      [job.id, end.status, end.result ?? null, end.error ?? null, new Date(Date.now() + AGENT_RETENTION_MS)],
    );
    if (rows.length === 0) return false;
    if (end.event) await recordAgentEvent(tx, job, end.event);
    return true;
  });
}

/**
 * The team's runs still within retention, newest first: at most `limit`, created before `before`
 * (epoch ms) when given, and whether older ones remain.
 */
export async function listAgentJobs(db: Queryable, teamId: string, limit: number, before?: number): Promise<{ jobs: AgentJobView[]; more: boolean }> {
  const rows = await db.query(
    `select * from jobs where team_id = $1 and kind = 'agent' and expires_at > now() and ($2::timestamptz is null or created_at < $2)
     order by created_at desc, id desc limit $3`,
    [teamId, before === undefined ? null : new Date(before), limit + 1],
  );
  return { jobs: rows.slice(0, limit).map(view), more: rows.length > limit };
}

/** Drops a zero data retention run's answer once it has been read (it is shown once). */
export async function dropAgentData(db: Queryable, id: string): Promise<void> {
  await db.query(`update jobs set result = result - 'data' - 'message', updated_at = now() where id = $1 and kind = 'agent'`, [id]);
}

/** Deletes runs past their retention, with their traces and webhook rows (a little late, so "expired" is answered a while). */
export async function purgeExpiredAgents(db: Queryable, graceMs = AGENT_RETENTION_MS): Promise<void> {
  const expired = `select id from jobs where kind = 'agent' and expires_at < now() - ($1::bigint * interval '1 millisecond')`;
  for (const table of ['agent_steps', 'webhook_deliveries']) await db.query(`delete from ${table} where job_id in (${expired})`, [graceMs]);
  await db.query(`delete from jobs where id in (${expired})`, [graceMs]);
}
