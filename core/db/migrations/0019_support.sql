-- Failed requests kept for POST /v2/support/ask (issue 21): the request body as the caller sent it,
-- the error it got and how long it took, per team, for 24 hours. Zero data retention and lockdown
-- requests are never stored (core/support/failures.ts). No foreign key, as for `jobs`.
CREATE TABLE IF NOT EXISTS support_failures (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  kind text NOT NULL,
  url text,
  request jsonb NOT NULL,
  error jsonb NOT NULL,
  status integer NOT NULL,
  duration_ms integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS support_failures_team_created_idx ON support_failures (team_id, created_at DESC);
