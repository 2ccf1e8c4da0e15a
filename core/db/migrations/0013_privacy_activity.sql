-- Team activity (issue 17): one row per scrape, crawl, batch scrape, map, search or parse a team
-- asked for, with its status, credits, URL (null under zero data retention) and the request's
-- `auditMetadata`, for GET /v2/team/activity. Crawl and batch rows take their live status and credits
-- from `jobs`. Keep in step with core/db/schema/activity.ts.

CREATE TABLE team_activity (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  url text,
  credits_used integer NOT NULL DEFAULT 0,
  audit_metadata jsonb,
  zero_data_retention boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_activity_team_created_idx ON team_activity (team_id, created_at DESC, id DESC);
