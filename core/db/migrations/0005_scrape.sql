-- Scrape state (issue 3): the scrape cache (maxAge/minAge/lockdown), named browser profiles, blobs
-- stored in the database (screenshots and PDFs served by any API node when DATABASE_URL is set),
-- scrape records (what interact needs to replay a scrape; a tombstone for zero data retention
-- scrapes) and interact sessions. Runs on PGlite (PostgreSQL 18) and PostgreSQL 15+.
-- Keep in step with core/db/schema/scrape.ts.

CREATE TABLE scrape_cache (
  id text PRIMARY KEY,
  cache_key text NOT NULL,
  url text NOT NULL,
  status_code integer NOT NULL,
  body text NOT NULL,
  size_bytes integer NOT NULL,
  cached_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX scrape_cache_key_idx ON scrape_cache (cache_key, cached_at DESC);
CREATE INDEX scrape_cache_expires_at_idx ON scrape_cache (expires_at);

CREATE TABLE browser_profiles (
  team_id text NOT NULL,
  name text NOT NULL,
  state jsonb,
  size_bytes integer NOT NULL DEFAULT 0,
  lock_holder text,
  lock_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, name)
);

CREATE TABLE blobs (
  key text PRIMARY KEY,
  content_type text NOT NULL,
  bytes bytea NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX blobs_expires_at_idx ON blobs (expires_at);

CREATE TABLE scrape_records (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  zero_data_retention boolean NOT NULL DEFAULT false,
  url text,
  source_url text,
  options jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX scrape_records_expires_at_idx ON scrape_records (expires_at);

CREATE TABLE interact_sessions (
  scrape_id text PRIMARY KEY,
  team_id text NOT NULL,
  node_id text NOT NULL,
  status text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_active_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  end_reason text,
  credits integer NOT NULL DEFAULT 0
);
