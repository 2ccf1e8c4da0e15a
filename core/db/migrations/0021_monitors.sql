-- Monitors (issue 20 scopes 2-3; compat.md §15): scheduled checks of scrape, crawl and search targets,
-- each page's change status, and the scheduler's leader lease. Keep in step with core/db/schema/monitors.ts.

CREATE TABLE monitors (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  api_key_id text,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'active',
  cron text NOT NULL,
  schedule_text text,
  timezone text NOT NULL DEFAULT 'UTC',
  targets jsonb NOT NULL,
  webhook jsonb,
  notification jsonb,
  retention_days integer NOT NULL DEFAULT 30,
  goal text,
  judge_enabled boolean NOT NULL DEFAULT false,
  next_run_at timestamptz,
  last_run_at timestamptz,
  current_check_id text,
  last_check_summary jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX monitors_team_created_idx ON monitors (team_id, created_at);
CREATE INDEX monitors_due_idx ON monitors (next_run_at) WHERE status = 'active';

-- One row per check. A scheduled check is unique per monitor and scheduled minute, so no slot runs twice
-- whatever the scheduler processes do.
CREATE TABLE monitor_checks (
  id text PRIMARY KEY,
  monitor_id text NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  team_id text NOT NULL,
  status text NOT NULL,
  trigger text NOT NULL,
  scheduled_for timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  summary jsonb NOT NULL DEFAULT '{"totalPages":0,"same":0,"changed":0,"new":0,"removed":0,"error":0}'::jsonb,
  target_results jsonb NOT NULL DEFAULT '[]'::jsonb,
  credits_used integer NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX monitor_checks_slot_idx ON monitor_checks (monitor_id, scheduled_for) WHERE trigger = 'scheduled';
CREATE INDEX monitor_checks_monitor_created_idx ON monitor_checks (monitor_id, created_at);
CREATE INDEX monitor_checks_status_idx ON monitor_checks (status);

-- One row per page of a check, with its change status and diff.
CREATE TABLE monitor_pages (
  check_id text NOT NULL REFERENCES monitor_checks (id) ON DELETE CASCADE,
  ordinal integer NOT NULL,
  id text NOT NULL,
  target_id text NOT NULL,
  url text NOT NULL,
  status text NOT NULL,
  previous_scrape_id text,
  current_scrape_id text,
  status_code integer,
  error text,
  diff jsonb,
  snapshot jsonb,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (check_id, ordinal)
);
CREATE INDEX monitor_pages_status_idx ON monitor_pages (check_id, status, ordinal);

-- Leases of singleton roles across processes (the scheduler's leader). `token` grows with every new
-- holder, so work done under an old lease can be told apart (fencing).
CREATE TABLE scheduler_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  token bigint NOT NULL DEFAULT 1,
  lease_until timestamptz NOT NULL
);
