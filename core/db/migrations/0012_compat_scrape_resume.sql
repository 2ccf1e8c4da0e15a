-- Scrape auto-resume (compat.md §4, §21; issue 25): a scrape still running when its request answered
-- 408 `processing_continues` is recorded under a key of the team and the request body, so a repeated
-- identical POST, on any API node, joins the running job instead of scraping again. Rows are dropped
-- when a repeat collects the result and pruned after `expires_at`.
-- Keep in step with core/db/schema/compat.ts.

CREATE TABLE scrape_resumes (
  request_key text PRIMARY KEY,
  scrape_id text NOT NULL,
  team_id text NOT NULL,
  run_until timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX scrape_resumes_expires_at_idx ON scrape_resumes (expires_at);
