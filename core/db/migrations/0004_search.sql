-- Search (issue 6): the local search index over scraped pages, the research paper index, and search
-- feedback. Full-text search uses the built-in `english` configuration on both PGlite (PostgreSQL 18)
-- and PostgreSQL 15+; the tsvector columns are generated, so writers only store text.
-- Keep in step with core/db/schema/search.ts.

CREATE TABLE search_index (
  url text PRIMARY KEY,
  host text NOT NULL,
  path text NOT NULL DEFAULT '/',
  title text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  content text NOT NULL DEFAULT '',
  kind text NOT NULL DEFAULT 'web',
  filetype text NOT NULL DEFAULT 'html',
  language text,
  image_url text,
  image_width integer,
  image_height integer,
  adult boolean NOT NULL DEFAULT false,
  published_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, description), 'B') ||
    setweight(to_tsvector('english'::regconfig, content), 'C')
  ) STORED
);
-- Uncompressed out-of-line storage: ranking reads the whole tsvector of every match, and skipping
-- decompression makes queries about 40% faster (bench/search/local-index.ts) for some more disk.
ALTER TABLE search_index ALTER COLUMN tsv SET STORAGE EXTERNAL;
CREATE INDEX search_index_tsv_idx ON search_index USING gin (tsv);
CREATE INDEX search_index_host_idx ON search_index (host);
CREATE INDEX search_index_kind_published_idx ON search_index (kind, published_at);

CREATE TABLE papers (
  id bigserial PRIMARY KEY,
  primary_id text NOT NULL UNIQUE,
  ids jsonb NOT NULL DEFAULT '{}'::jsonb,
  title text NOT NULL,
  abstract text NOT NULL DEFAULT '',
  authors text NOT NULL DEFAULT '',
  categories jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_date text,
  updated_date text,
  url text,
  pdf_url text,
  body text NOT NULL DEFAULT '',
  refs jsonb NOT NULL DEFAULT '[]'::jsonb,
  indexed_at timestamptz NOT NULL DEFAULT now(),
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, abstract), 'B') ||
    setweight(to_tsvector('english'::regconfig, authors), 'C')
  ) STORED
);
ALTER TABLE papers ALTER COLUMN tsv SET STORAGE EXTERNAL;
CREATE INDEX papers_tsv_idx ON papers USING gin (tsv);
CREATE INDEX papers_ids_idx ON papers USING gin (ids jsonb_path_ops);
CREATE INDEX papers_refs_idx ON papers USING gin (refs);

CREATE TABLE search_feedback (
  id text PRIMARY KEY,
  job_id text NOT NULL UNIQUE,
  team_id text NOT NULL,
  endpoint text NOT NULL,
  rating text NOT NULL,
  body jsonb NOT NULL DEFAULT '{}'::jsonb,
  credits_refunded integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_feedback_team_created_idx ON search_feedback (team_id, created_at);
