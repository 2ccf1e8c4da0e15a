-- Model usage (issue 18): one row per call to the language model, for the team it was made for, with
-- the tokens of its prompt and completion, the model that answered and what the call was for
-- (`format:json`, `crawl:prompt`, `interact:prompt` …). GET /v2/team/token-usage and its historical
-- variant sum these rows. No foreign key to teams, as for `jobs`. Keep in step with
-- core/db/schema/model-usage.ts.

CREATE TABLE model_usage (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  api_key_id text,
  job_id text,
  purpose text NOT NULL,
  model text NOT NULL,
  prompt_tokens integer NOT NULL DEFAULT 0,
  completion_tokens integer NOT NULL DEFAULT 0,
  estimated boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX model_usage_team_created_idx ON model_usage (team_id, created_at);
