/**
 * Token accounting of model calls (issue 18): one `model_usage` row per call (migration 0016_llm),
 * for the team the call was made for. The token-usage endpoints (core/credits/usage.ts, compat.md §16)
 * sum these rows. Rows carry no content (no prompt, no answer), so they are kept under zero data
 * retention too.
 */
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';

/** One model call to record. */
export interface ModelCallRecord {
  teamId: string;
  apiKeyId?: string;
  jobId?: string;
  /** What the call was for (`format:json`, `crawl:prompt`, `interact:prompt` …). */
  purpose: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** The server sent no usage; the tokens are estimated. */
  estimated?: boolean;
}

/** Inserts one call's row. @throws the database's errors */
export async function recordModelCall(db: Queryable, r: ModelCallRecord): Promise<void> {
  await db.query(
    `INSERT INTO model_usage (id, team_id, api_key_id, job_id, purpose, model, prompt_tokens, completion_tokens, estimated)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [newId(), r.teamId, r.apiKeyId ?? null, r.jobId ?? null, r.purpose.slice(0, 100), r.model.slice(0, 200),
      Math.max(0, Math.round(r.promptTokens)), Math.max(0, Math.round(r.completionTokens)), r.estimated === true],
  );
}

/** Tokens a team's model calls used, by purpose (newest month first is not needed here: totals since `since`). */
export async function modelTokensByPurpose(
  db: Queryable,
  teamId: string,
  since = new Date(0),
): Promise<{ purpose: string; model: string; calls: number; promptTokens: number; completionTokens: number }[]> {
  const rows = await db.query<{ purpose: string; model: string; calls: number; prompt: number; completion: number }>(
    `SELECT purpose, model, count(*)::int AS calls, coalesce(sum(prompt_tokens), 0)::bigint AS prompt,
            coalesce(sum(completion_tokens), 0)::bigint AS completion
     FROM model_usage WHERE team_id = $1 AND created_at >= $2 GROUP BY 1, 2 ORDER BY 1, 2`,
    [teamId, since],
  );
  return rows.map((r) => ({ purpose: r.purpose, model: r.model, calls: Number(r.calls), promptTokens: Number(r.prompt), completionTokens: Number(r.completion) }));
}
