/**
 * The credit ledger of each team (compat.md §18.1). Every change of a balance is one `credit_ledger`
 * row inserted in the same SQL statement that updates `teams.credits`, so the balance and the ledger
 * never disagree. Charges are idempotent: `(kind, refId)` is unique, and a repeated charge for the
 * same document or job id changes nothing. Callers: the scrape worker (per document), search (per
 * search), map (per call), search feedback (refund), and the `trawl teams credits` command.
 */
import type { Queryable } from '../db/client.ts';
import type { LedgerKind } from '../db/schema/accounts.ts';
import { newId } from '../ids.ts';
import { COSTS } from './costs.ts';
import { rowAdditive } from '../store/sql-merge.ts';

export interface LedgerEntry {
  teamId: string;
  /** Key that caused the entry (undefined: keyless, auth-off or admin). */
  apiKeyId?: string;
  /** Crawl, batch or search job id the entry belongs to. */
  jobId?: string;
  kind: LedgerKind;
  /** Document, job or operation id: a second entry with the same kind and refId is ignored. */
  refId: string;
  /** Credits (a non-negative number; charges subtract it, refunds and grants add it). */
  credits: number;
  /** LLM tokens used (token-usage endpoints). */
  tokens?: number;
}

export interface LedgerResult {
  /** False when an entry with the same kind and refId already existed (nothing changed). */
  applied: boolean;
  /** The team's balance after the entry, when it was applied. */
  balance?: number;
}

// Several entries in one statement (a group commit of concurrent scrapes, core/store/group-commit.ts)
// change each team's balance by the sum of its entries inserted: in one statement a row is updated
// only once, so one update per entry would keep only one of them. One entry alone takes the plain
// form (the sum cost PGlite 0.1-0.2 ms more per statement, measured alternating the two).
const APPLY_ROW = '($1, $2, $3, $4, $5, $6, $7, $8)';
const APPLY = rowAdditive(
  `WITH ins AS (
  INSERT INTO credit_ledger (id, team_id, api_key_id, job_id, kind, ref_id, delta, tokens)
  VALUES ${APPLY_ROW}
  ON CONFLICT (kind, ref_id) DO NOTHING
  RETURNING delta
)
UPDATE teams SET credits = teams.credits + ins.delta FROM ins WHERE teams.id = $2 RETURNING teams.credits AS balance`,
  `WITH ins AS (
  INSERT INTO credit_ledger (id, team_id, api_key_id, job_id, kind, ref_id, delta, tokens)
  VALUES ${APPLY_ROW}
  ON CONFLICT (kind, ref_id) DO NOTHING
  RETURNING team_id, delta
)
UPDATE teams SET credits = teams.credits + per_team.delta
  FROM (SELECT team_id, sum(delta)::bigint AS delta FROM ins GROUP BY team_id) per_team
 WHERE teams.id = per_team.team_id RETURNING teams.credits AS balance`,
);

async function apply(db: Queryable, e: LedgerEntry, delta: number): Promise<LedgerResult> {
  if (!Number.isFinite(e.credits) || e.credits < 0) throw new Error(`[credits] invalid amount ${e.credits}`);
  const rows = await db.query<{ balance: number }>(APPLY, [
    newId(), e.teamId, e.apiKeyId ?? null, e.jobId ?? null, e.kind, e.refId, Math.round(delta), Math.round(e.tokens ?? 0),
  ]);
  // No row: a duplicate (nothing inserted) or a team that no longer exists (nothing updated).
  if (rows.length === 0) return { applied: false };
  return { applied: true, balance: Number(rows[0].balance) };
}

/**
 * Charges credits for finished work. Idempotent per `(kind, refId)`. A charge of 0 credits and 0
 * tokens records nothing. The balance may go below zero (work already done is always charged);
 * admission (core/http/guard.ts) refuses new work once it cannot be covered.
 */
export async function chargeCredits(db: Queryable, e: LedgerEntry): Promise<LedgerResult> {
  if (e.credits === 0 && !e.tokens) return { applied: false };
  return apply(db, e, -e.credits);
}

/** Gives credits back (search feedback refund). Idempotent per `(kind, refId)`. */
export async function refundCredits(db: Queryable, e: LedgerEntry): Promise<LedgerResult> {
  return apply(db, e, e.credits);
}

/**
 * Adds credits to a team (`trawl teams credits <team> --add N`).
 * @returns the new balance, or undefined for an unknown team
 */
export async function grantCredits(db: Queryable, teamId: string, credits: number): Promise<number | undefined> {
  return (await apply(db, { teamId, kind: 'grant', refId: newId(), credits }, credits)).balance;
}

/**
 * Sets a team's balance (`trawl teams credits <team> --set N`), recording the difference in the ledger.
 * @returns the new balance, or undefined for an unknown team
 */
export async function setCredits(db: Queryable, teamId: string, balance: number): Promise<number | undefined> {
  const current = await teamBalance(db, teamId);
  if (current === undefined) return undefined;
  const delta = Math.round(balance) - current;
  const rows = await db.query<{ balance: number }>(APPLY, [newId(), teamId, null, null, 'set', newId(), delta, 0]);
  return rows[0] ? Number(rows[0].balance) : undefined;
}

/** A team's remaining credits, or undefined for an unknown team. */
export async function teamBalance(db: Queryable, teamId: string): Promise<number | undefined> {
  const rows = await db.query<{ credits: number }>('SELECT credits FROM teams WHERE id = $1', [teamId]);
  return rows[0] ? Number(rows[0].credits) : undefined;
}

export interface FeedbackRefund {
  creditsRefunded: number;
  dailyCapReached: boolean;
  creditsRefundedToday: number;
  dailyRefundCap: number;
}

/**
 * Refunds 1 credit for the first feedback on a search job, within the team's daily cap (UTC day)
 * (interface.md: "first submission for a job can refund 1 credit, subject to team limits"; compat.md
 * §11.3). Idempotent per search job id: a second call refunds nothing.
 */
export async function refundSearchFeedback(
  db: Queryable,
  opts: { teamId: string; apiKeyId?: string; searchJobId: string; dailyCap: number },
): Promise<FeedbackRefund> {
  const today = await db.query<{ n: number }>(
    `SELECT coalesce(sum(delta), 0)::bigint AS n FROM credit_ledger
     WHERE team_id = $1 AND kind = 'feedback_refund' AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
    [opts.teamId],
  );
  const refundedToday = Number(today[0]?.n ?? 0);
  if (refundedToday + COSTS.feedbackRefund > opts.dailyCap) {
    return { creditsRefunded: 0, dailyCapReached: true, creditsRefundedToday: refundedToday, dailyRefundCap: opts.dailyCap };
  }
  const r = await refundCredits(db, {
    teamId: opts.teamId, apiKeyId: opts.apiKeyId, jobId: opts.searchJobId, kind: 'feedback_refund', refId: opts.searchJobId, credits: COSTS.feedbackRefund,
  });
  const refunded = r.applied ? COSTS.feedbackRefund : 0;
  return { creditsRefunded: refunded, dailyCapReached: false, creditsRefundedToday: refundedToday + refunded, dailyRefundCap: opts.dailyCap };
}
