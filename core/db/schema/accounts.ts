/**
 * The credit ledger (interface.md "Limits", credits table; compat.md §18.1). One row per change of a
 * team's balance: `delta` is negative for a charge, positive for a grant or refund. `teams.credits`
 * holds the running balance and is updated in the same statement as the insert. `(kind, ref_id)` is
 * unique, which makes every charge idempotent per document or job id.
 */
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Ledger entry kinds. */
export const LEDGER_KINDS = ['grant', 'set', 'scrape', 'lockdown_miss', 'search', 'map', 'extract', 'agent', 'interact', 'parse', 'feedback_refund'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id').notNull(),
    /** Key that caused the entry; null for keyless calls and admin grants. */
    apiKeyId: text('api_key_id'),
    /** Crawl, batch or search job the entry belongs to, if any. */
    jobId: text('job_id'),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** Document, job or operation id; unique per kind (idempotency). */
    refId: text('ref_id').notNull(),
    /** Change of the balance, credits (negative = charge). */
    delta: bigint('delta', { mode: 'number' }).notNull(),
    /** LLM tokens used by the operation (token-usage endpoints). */
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('credit_ledger_kind_ref_idx').on(t.kind, t.refId), index('credit_ledger_team_created_idx').on(t.teamId, t.createdAt)],
);

export type CreditLedgerRow = typeof creditLedger.$inferSelect;
