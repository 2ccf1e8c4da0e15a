-- Crawl and search index write costs (issue 22 part 5).
-- search_index.source_hash: a hash of what a row was made from (the document's text and its stable
-- metadata, and the analyzer version; core/search/index-feed.ts). A page crawled again unchanged
-- finds its hash stored and is not analyzed, serialized or written again.
-- documents.body is stored out of line without compression: bodies are serialized Documents that
-- are only ever read back whole, and most crawled pages are larger than the TOAST threshold (2 kB),
-- so every insert tried to compress them (pglz, on the database thread) for little disk saved.
-- Keep in step with core/db/schema/search.ts and core/db/schema/documents.ts.

ALTER TABLE search_index ADD COLUMN source_hash text;
ALTER TABLE documents ALTER COLUMN body SET STORAGE EXTERNAL;
