-- Foundation tables: teams, API keys, jobs, documents and the in-process queue.
-- Runs on PGlite (PostgreSQL 18) and PostgreSQL 15+. Keep in step with core/db/schema/*.ts.

CREATE TABLE teams (
  id text PRIMARY KEY,
  name text NOT NULL,
  credits bigint NOT NULL,
  concurrency integer NOT NULL,
  zdr_enabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL DEFAULT '',
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  allowed_formats jsonb NOT NULL DEFAULT '[]'::jsonb,
  allowed_endpoints jsonb NOT NULL DEFAULT '[]'::jsonb,
  is_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_team_id_idx ON api_keys (team_id);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  url text,
  options jsonb NOT NULL DEFAULT '{}'::jsonb,
  result jsonb,
  error jsonb,
  credits_used integer NOT NULL DEFAULT 0,
  zero_data_retention boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  expires_at timestamptz
);
CREATE INDEX jobs_team_created_idx ON jobs (team_id, created_at);
CREATE INDEX jobs_expires_at_idx ON jobs (expires_at);

CREATE TABLE documents (
  id text PRIMARY KEY,
  job_id text,
  team_id text NOT NULL,
  url text NOT NULL,
  source_url text NOT NULL,
  status_code integer NOT NULL,
  body text NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz
);
CREATE INDEX documents_job_created_idx ON documents (job_id, created_at);
CREATE INDEX documents_expires_at_idx ON documents (expires_at);

CREATE TABLE queue_jobs (
  id text PRIMARY KEY,
  queue text NOT NULL,
  name text NOT NULL,
  data jsonb,
  status text NOT NULL DEFAULT 'waiting',
  priority integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 1,
  backoff_ms integer NOT NULL DEFAULT 0,
  run_at timestamptz NOT NULL DEFAULT now(),
  result jsonb,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_jobs_queue_status_run_at_idx ON queue_jobs (queue, status, run_at);
