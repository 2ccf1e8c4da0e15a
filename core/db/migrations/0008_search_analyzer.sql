-- The local search index's tsvector is computed by Trawl (core/search/analyzer.ts) instead of by a
-- generated column (issue 4): to_tsvector('english', ...) on every crawled page was the largest single
-- cost of the embedded database's thread (0.75 ms per page in PGlite; bench/search/analyzer.ts). The column keeps the
-- values it has; `analyzer` records which analyzer wrote each row (null: the database, before this
-- migration), and the scheduler's `reanalyze-search-index` task recomputes older rows.
-- Keep in step with core/db/schema/search.ts.

ALTER TABLE search_index ALTER COLUMN tsv DROP EXPRESSION;
ALTER TABLE search_index ADD COLUMN analyzer smallint;
