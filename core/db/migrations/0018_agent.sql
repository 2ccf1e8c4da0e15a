-- Agent runs (issue 19, POST /v2/agent): the run itself is a `jobs` row of kind `agent` (status,
-- public options, result, error, credits, expiry); this table is its trace, one row per step (a model
-- turn or a tool call), in order. Under zero data retention a step keeps no input and no note.
-- Rows go with the job when its 24 h retention ends (core/agent/store.ts `purgeExpiredAgents`).
-- Runs on PGlite (PostgreSQL 18) and PostgreSQL 15+. Keep in step with core/db/schema/agent.ts.

CREATE TABLE agent_steps (
  job_id text NOT NULL,
  seq integer NOT NULL,
  kind text NOT NULL,
  tool text,
  input jsonb,
  note text,
  ok boolean NOT NULL DEFAULT true,
  credits integer NOT NULL DEFAULT 0,
  tokens integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, seq)
);

-- Tokens of one job (an agent run sums its model calls, its extract pages' included).
CREATE INDEX model_usage_job_idx ON model_usage (job_id);
-- Finding expired runs of one kind.
CREATE INDEX jobs_kind_expires_idx ON jobs (kind, expires_at);
