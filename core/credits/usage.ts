/**
 * Usage figures for the team endpoints (compat.md §16): remaining and plan credits, token usage, and
 * monthly history from the credit ledger. Billing periods are calendar months (UTC). Every number is
 * finite and never null (compat.md §21.13: the CLI breaks on null usage numbers).
 */
import type { Queryable } from '../db/client.ts';

/** Tokens are not billed: the token plan is this large finite number (compat.md §16). */
export const TOKEN_PLAN = 1_000_000_000_000;

/** The current billing period: the calendar month (UTC) holding `now`. */
export function billingPeriod(now = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - 1);
  return { start, end };
}

export interface CreditUsage {
  remainingCredits: number;
  planCredits: number;
  billingPeriodStart: string;
  billingPeriodEnd: string;
}

export interface TokenUsage {
  remainingTokens: number;
  planTokens: number;
  billingPeriodStart: string;
  billingPeriodEnd: string;
}

/** Credits and tokens used by a team since `since` (charges minus refunds; grants excluded). */
async function usedSince(db: Queryable, teamId: string, since: Date): Promise<{ credits: number; tokens: number }> {
  // Model calls record their tokens in model_usage (core/llm/usage.ts); ledger tokens are counted too.
  const rows = await db.query<{ credits: number; tokens: number }>(
    `SELECT coalesce(-sum(delta), 0)::bigint AS credits,
            (coalesce(sum(tokens), 0) + (SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) FROM model_usage
               WHERE team_id = $1 AND created_at >= $2))::bigint AS tokens
     FROM credit_ledger WHERE team_id = $1 AND kind NOT IN ('grant', 'set') AND created_at >= $2`,
    [teamId, since],
  );
  return { credits: Number(rows[0]?.credits ?? 0), tokens: Number(rows[0]?.tokens ?? 0) };
}

/**
 * `GET /v2/team/credit-usage` data: the balance, and as plan the balance plus what was used this
 * period (there is no billing plan in Trawl).
 */
export async function creditUsage(db: Queryable, teamId: string): Promise<CreditUsage> {
  const { start, end } = billingPeriod();
  const rows = await db.query<{ credits: number }>('SELECT credits FROM teams WHERE id = $1', [teamId]);
  const remaining = Number(rows[0]?.credits ?? 0);
  const used = await usedSince(db, teamId, start);
  return {
    remainingCredits: remaining,
    planCredits: Math.max(remaining + used.credits, remaining, 0),
    billingPeriodStart: start.toISOString(),
    billingPeriodEnd: end.toISOString(),
  };
}

/** `GET /v2/team/token-usage` data. */
export async function tokenUsage(db: Queryable, teamId: string): Promise<TokenUsage> {
  const { start, end } = billingPeriod();
  const used = await usedSince(db, teamId, start);
  return {
    remainingTokens: Math.max(0, TOKEN_PLAN - used.tokens),
    planTokens: TOKEN_PLAN,
    billingPeriodStart: start.toISOString(),
    billingPeriodEnd: end.toISOString(),
  };
}

export interface UsagePeriod {
  startDate: string;
  endDate: string;
  /** The key's display prefix with `byApiKey`, else null. */
  apiKey: string | null;
  total: number;
}

/**
 * Monthly usage (credits or tokens) of a team, newest first; the current month is always present.
 * @param byApiKey one row per key and month (keyless and admin entries under `apiKey: null`)
 */
export async function usageHistory(db: Queryable, teamId: string, what: 'credits' | 'tokens', byApiKey: boolean): Promise<UsagePeriod[]> {
  // Tokens: the ledger's and those of model calls (model_usage, core/llm/usage.ts).
  const source =
    what === 'credits'
      ? `SELECT api_key_id, created_at, -delta AS amount FROM credit_ledger WHERE team_id = $1 AND kind NOT IN ('grant', 'set')`
      : `SELECT api_key_id, created_at, tokens AS amount FROM credit_ledger WHERE team_id = $1 AND kind NOT IN ('grant', 'set')
         UNION ALL SELECT api_key_id, created_at, prompt_tokens + completion_tokens FROM model_usage WHERE team_id = $1`;
  const rows = await db.query<{ month: string; key_prefix: string | null; total: number }>(
    `SELECT to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
            ${byApiKey ? 'k.key_prefix' : 'NULL::text'} AS key_prefix,
            coalesce(sum(l.amount), 0)::bigint AS total
     FROM (${source}) l LEFT JOIN api_keys k ON k.id = l.api_key_id
     GROUP BY 1, 2 ORDER BY 1 DESC, 2`,
    [teamId],
  );
  const periods = rows.map((r) => {
    const [y, mo] = r.month.split('-').map(Number);
    const start = new Date(Date.UTC(y, mo - 1, 1));
    const end = new Date(Date.UTC(y, mo, 1) - 1);
    return { startDate: start.toISOString(), endDate: end.toISOString(), apiKey: r.key_prefix ? `${r.key_prefix}...` : null, total: Number(r.total) };
  });
  const current = billingPeriod().start.toISOString();
  if (!periods.some((p) => p.startDate === current)) {
    const { start, end } = billingPeriod();
    periods.unshift({ startDate: start.toISOString(), endDate: end.toISOString(), apiKey: null, total: 0 });
  }
  return periods;
}
