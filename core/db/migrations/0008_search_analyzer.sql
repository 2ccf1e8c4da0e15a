-- The local search index's tsvector is computed by Trawl (core/search/analyzer.ts) instead of by a
-- generated column (issue 4): to_tsvector('english', ...) on every crawled page was the largest single
-- cost of the embedded database's thread (0.75 ms per page in PGlite; bench/search/analyzer.ts). The column keeps the
-- values it has; `analyzer` records which analyzer version wrote each row, null for a row still to
-- be analyzed (written by the database before this migration; a later analyzer version sets the
-- column back to null in its own migration). The scheduler's `reanalyze-search-index` task finds
-- those rows through the partial index, which is empty once they are done, so the task costs an
-- index probe rather than a scan of the table every minute.
-- Keep in step with core/db/schema/search.ts.

ALTER TABLE search_index ALTER COLUMN tsv DROP EXPRESSION;
ALTER TABLE search_index ADD COLUMN analyzer smallint;
CREATE INDEX search_index_unanalyzed_idx ON search_index (url) WHERE analyzer IS NULL;
