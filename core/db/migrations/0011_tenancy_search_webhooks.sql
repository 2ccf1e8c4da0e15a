-- Team isolation (issue 15 items 3 and 13). Keep in step with core/db/schema/search.ts and teams.ts.
--
-- 1. The local search index is per team: a row belongs to the team whose scrape indexed it, and the
--    same URL may be indexed by several teams (one row each). A search reads its own team's rows and
--    the rows of teams the operator made public (TRAWL_SEARCH_PUBLIC_TEAMS). Rows written before this
--    migration have no known team (some may come from scrapes with a login profile): they are given
--    to the built-in local team, the one `TRAWL_AUTH=off` runs as, so with keys on no key and no
--    keyless caller sees them unless the operator lists the local team as public. They are derived
--    data: scraping a page again indexes it under the scraping team.
ALTER TABLE search_index ADD COLUMN team_id text;
UPDATE search_index SET team_id = '00000000-0000-7000-8000-000000000001';
ALTER TABLE search_index ALTER COLUMN team_id SET NOT NULL;
ALTER TABLE search_index DROP CONSTRAINT search_index_pkey;
ALTER TABLE search_index ADD PRIMARY KEY (team_id, url);
DROP INDEX search_index_unanalyzed_idx;
CREATE INDEX search_index_unanalyzed_idx ON search_index (team_id, url) WHERE analyzer IS NULL;

-- 2. Each team signs its webhooks with its own secret, generated on first use (core/webhooks/team-secret.ts).
ALTER TABLE teams ADD COLUMN webhook_secret text;
