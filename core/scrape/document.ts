/**
 * The Document a scrape produces and the request that asks for it (compat.md §3): domain types shared
 * by the pipeline, the cache, crawl, search, accounting and the content threads, in a module of their
 * own so that none of those has to import another to name them.
 */
import type { ScrapeOptions } from './options.ts';

/** A Document: requested format fields plus `metadata` (compat.md §3). */
export type Document = Record<string, unknown> & { metadata: Record<string, unknown> };

/** One scrape to run: ids, the URL to fetch and the resolved options. */
export interface ScrapeRequest {
  scrapeId: string;
  /** Normalized absolute URL to fetch. */
  url: string;
  /** The URL exactly as the user sent it (metadata.sourceURL, unnormalized). */
  sourceURL: string;
  options: ScrapeOptions;
}
