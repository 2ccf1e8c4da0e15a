-- The latest kept version of each page per team, URL and tag (issue 20, change tracking: compat.md
-- §2.1). One row per (team, tag, URL), replaced by each scrape that tracks changes; what the next
-- scrape compares against. `url_key` is the sha256 (hex) of the normalized URL, so long URLs fit the
-- primary key; `tag` is '' for the default history. `gone`: the page answered 404/410 (a tombstone:
-- no markdown). `markdown` and `json` are the page's markdown and the JSON-mode answer (jsonb, null
-- when the scrape did not ask for it). Zero data retention work writes nothing here. No foreign key,
-- as for `jobs`.
CREATE TABLE IF NOT EXISTS page_versions (
  team_id text NOT NULL,
  tag text NOT NULL DEFAULT '',
  url_key text NOT NULL,
  url text NOT NULL,
  scraped_at timestamptz NOT NULL,
  gone boolean NOT NULL DEFAULT false,
  markdown text,
  json jsonb,
  PRIMARY KEY (team_id, tag, url_key)
);
