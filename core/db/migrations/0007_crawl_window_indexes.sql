-- Partial indexes for the crawl window (issue 4). crawl_advance counts a crawl's in-flight rows and
-- picks its next backlog rows on every completed page. PGlite never runs ANALYZE (no autovacuum), so
-- without statistics the planner read those rows through the primary key and filtered every row of
-- the crawl: each page cost O(pages of the crawl), 0.64 ms per advance half way through a
-- 1,000-page crawl. These indexes hold only the rows each query wants (the window and the backlog),
-- so the planner picks them with or without statistics: 0.14 ms, whatever the crawl's size. The
-- lease reconciler (status = 'active') and the excess promotion use them too.
-- Keep in step with core/db/schema/crawl.ts.

CREATE INDEX crawl_urls_window_idx ON crawl_urls (job_id) WHERE status IN ('queued', 'active');
CREATE INDEX crawl_urls_backlog_idx ON crawl_urls (job_id, depth, id) WHERE status = 'backlog';
