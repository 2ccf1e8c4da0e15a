-- Accounts (issue 7): the credit ledger of every team. `teams.credits` stays the balance; every change
-- to it is one ledger row, written in the same statement. `(kind, ref_id)` is unique so a charge for
-- the same document or job is recorded once, however often it is retried.
-- Runs on PGlite (PostgreSQL 18) and PostgreSQL 15+. Keep in step with core/db/schema/accounts.ts.

CREATE TABLE credit_ledger (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  api_key_id text,
  job_id text,
  kind text NOT NULL,
  ref_id text NOT NULL,
  delta bigint NOT NULL,
  tokens bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX credit_ledger_kind_ref_idx ON credit_ledger (kind, ref_id);
CREATE INDEX credit_ledger_team_created_idx ON credit_ledger (team_id, created_at);
