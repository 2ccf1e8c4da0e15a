/**
 * Extract jobs in the `jobs` table (kind `extract`; no migration of its own): created `processing`
 * by the API with the `extract.started` event, finished once by whoever gets there first (the
 * worker, a cancel, or a status read that finds the job lost), each terminal change with its
 * `extract.completed|failed` event in the same transaction (core/webhooks/outbox.ts). Results are
 * kept 24 h after the end (`expires_at`); a zero data retention job stores neither URLs nor prompt,
 * and its result only until the first read that returns it.
 */
import type { Database, Queryable } from '../db/client.ts';
import type { SerializedError } from '../errors.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';

/** How long results are kept after the end (interface.md Limits: 24 h), ms. */
export const EXTRACT_RETENTION_MS = 24 * 3600 * 1000;

export type ExtractStatus = 'processing' | 'completed' | 'failed' | 'cancelled';

/** What an extract's row stores besides the data: what the worker and status reads need. */
export interface ExtractJobOptions {
  apiKeyId?: string;
  webhook?: WebhookSpec;
  /** Budget from creation, ms. */
  timeoutMs: number;
  showSources: boolean;
  /** Entries refused by `ignoreInvalidURLs` (none stored under zero data retention). */
  invalidURLs?: string[];
}

/** The final data of a completed extract. */
export interface ExtractResult {
  data: unknown;
  sources?: Record<string, string[]>;
  warning?: string;
  tokensUsed: number;
  /** A zero data retention result was returned once and dropped. */
  dropped?: boolean;
}

export interface ExtractJob {
  id: string;
  teamId: string;
  status: ExtractStatus;
  options: ExtractJobOptions;
  result?: ExtractResult;
  error?: SerializedError;
  creditsUsed: number;
  zeroDataRetention: boolean;
  createdAt: Date;
  completedAt?: Date;
  expiresAt?: Date;
}

function rowToJob(r: Record<string, any>): ExtractJob {
  return {
    id: r.id,
    teamId: r.team_id,
    status: r.status,
    options: r.options,
    result: r.result ?? undefined,
    error: r.error ?? undefined,
    creditsUsed: Number(r.credits_used),
    zeroDataRetention: r.zero_data_retention,
    createdAt: new Date(r.created_at),
    completedAt: r.completed_at ? new Date(r.completed_at) : undefined,
    expiresAt: r.expires_at ? new Date(r.expires_at) : undefined,
  };
}

/** Creates the job row and its `extract.started` event in one transaction. */
export async function createExtractJob(
  db: Database,
  job: { id: string; teamId: string; url?: string; options: ExtractJobOptions; zeroDataRetention: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into jobs (id, team_id, kind, status, url, options, zero_data_retention) values ($1, $2, 'extract', 'processing', $3, $4, $5)`,
      [job.id, job.teamId, job.zeroDataRetention ? null : (job.url ?? null), job.options, job.zeroDataRetention],
    );
    await recordEvent(tx, job.options.webhook, { type: 'extract.started', jobId: job.id, teamId: job.teamId, success: true });
  });
}

/** The extract job `id`, or undefined (unknown id, or a job of another kind). */
export async function getExtractJob(db: Queryable, id: string): Promise<ExtractJob | undefined> {
  const rows = await db.query<Record<string, any>>(`select * from jobs where id = $1 and kind = 'extract'`, [id]);
  return rows[0] ? rowToJob(rows[0]) : undefined;
}

/** How an extract ends. */
export type ExtractEnd =
  | { status: 'completed'; result: ExtractResult; credits: number }
  | { status: 'failed'; error: SerializedError; credits?: number }
  | { status: 'cancelled' };

/**
 * Ends a `processing` job (once: a job already ended is left alone) and records its event
 * (`extract.completed` / `extract.failed`; a cancel sends none, as the reference has no such event).
 * @returns the ended job, or undefined when it was no longer processing
 */
export async function endExtractJob(db: Database, id: string, end: ExtractEnd): Promise<ExtractJob | undefined> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<Record<string, any>>(
      `update jobs set status = $2, result = $3, error = $4, credits_used = $5, completed_at = now(), updated_at = now(),
         expires_at = now() + ($6::bigint * interval '1 millisecond')
       where id = $1 and kind = 'extract' and status = 'processing' returning *`,
      [id, end.status, end.status === 'completed' ? end.result : null, end.status === 'failed' ? end.error : null,
        end.status === 'cancelled' ? 0 : Math.round(end.credits ?? 0), EXTRACT_RETENTION_MS],
    );
    if (!rows[0]) return undefined;
    const job = rowToJob(rows[0]);
    if (end.status !== 'cancelled') {
      await recordEvent(tx, job.options.webhook, {
        type: `extract.${end.status}`, jobId: id, teamId: job.teamId, success: end.status === 'completed',
        ...(end.status === 'failed' ? { error: end.error.message } : {}),
      });
    }
    return job;
  });
}

/** Drops a zero data retention job's result once it was returned (keeps tokens and the warning). */
export async function dropExtractData(db: Queryable, job: ExtractJob): Promise<void> {
  if (!job.result) return;
  const { tokensUsed, warning } = job.result;
  await db.query(`update jobs set result = $2, updated_at = now() where id = $1`, [job.id, { data: null, tokensUsed, warning, dropped: true }]);
}

/** Model tokens used by the calls made for `jobId` (core/llm/usage.ts rows). */
export async function tokensOf(db: Queryable, jobId: string): Promise<number> {
  const rows = await db.query<{ n: string | number }>(
    'select coalesce(sum(prompt_tokens + completion_tokens), 0)::bigint as n from model_usage where job_id = $1',
    [jobId],
  );
  return Number(rows[0]?.n ?? 0);
}
