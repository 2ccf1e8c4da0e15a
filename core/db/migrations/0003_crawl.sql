-- Crawl, batch scrape and webhook state (issue 4). Keep in step with core/db/schema/crawl.ts.
-- The database is the source of truth of every crawl: the queue only carries "scrape this row"
-- messages, so a lost queue (Redis restarted) is repaired from here (core/crawl/reconciler.ts).

-- One row per crawl or batch scrape, beside its `jobs` row (same id): options and shared counters.
CREATE TABLE crawl_jobs (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  kind text NOT NULL,
  state text NOT NULL DEFAULT 'running',
  options jsonb NOT NULL,
  concurrency integer NOT NULL,
  delay_ms integer NOT NULL DEFAULT 0,
  url_limit integer NOT NULL,
  accepted integer NOT NULL DEFAULT 0,
  excess integer NOT NULL DEFAULT 0,
  done_count integer NOT NULL DEFAULT 0,
  finished_count integer NOT NULL DEFAULT 0,
  credits_used integer NOT NULL DEFAULT 0,
  next_ordinal integer NOT NULL DEFAULT 0,
  kickoff text NOT NULL DEFAULT 'pending',
  kickoff_lease timestamptz,
  start_error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX crawl_jobs_state_idx ON crawl_jobs (state);

-- One row per distinct URL of a crawl (url_key = normalized spelling, so each page is scraped once)
-- or per URL of a batch (url_key = its ordinal).
CREATE TABLE crawl_urls (
  job_id text NOT NULL,
  url_key text NOT NULL,
  id text NOT NULL,
  url text NOT NULL,
  source_url text NOT NULL,
  depth integer NOT NULL DEFAULT 0,
  external boolean NOT NULL DEFAULT false,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  enqueues integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  enqueued_at timestamptz,
  seq integer,
  error_code text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, url_key)
);
CREATE UNIQUE INDEX crawl_urls_id_idx ON crawl_urls (id);
CREATE INDEX crawl_urls_job_status_idx ON crawl_urls (job_id, status, depth, id);
CREATE UNIQUE INDEX crawl_urls_job_seq_idx ON crawl_urls (job_id, seq) WHERE seq IS NOT NULL;

-- robots.txt text per crawl and origin, fetched once and shared by every worker.
CREATE TABLE crawl_robots (
  job_id text NOT NULL,
  origin text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, origin)
);

-- x-idempotency-key of crawl and batch requests: reuse within 24 h is refused (compat.md §6).
CREATE TABLE idempotency_keys (
  team_id text NOT NULL,
  key text NOT NULL,
  job_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, key)
);

-- Webhook outbox: one row per event, delivered in `seq` order per job, retried with backoff.
CREATE TABLE webhook_deliveries (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  job_id text NOT NULL,
  team_id text NOT NULL,
  event text NOT NULL,
  url text NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}'::jsonb,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_job_idx ON webhook_deliveries (job_id, seq);

-- Every delivery attempt, for diagnosis.
CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (delivery_id, attempt)
);

-- Which process currently sends a job's webhooks (keeps per-job order across processes).
CREATE TABLE webhook_senders (
  job_id text PRIMARY KEY,
  lease_until timestamptz NOT NULL
);
