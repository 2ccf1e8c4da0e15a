/**
 * Types of page versions and change tracking (issue 20; compat.md §2.1): what is kept of a page per
 * team, URL and tag, and the `changeTracking` object a document carries. A leaf module (no imports),
 * so the plugin types (core/plugin.ts) can name it without an import cycle.
 */

/** One kept version of a page: what the next scrape of the same team, URL and tag compares against. */
export interface PageVersion {
  /** When this version was scraped. */
  scrapedAt: Date;
  /** The page answered 404 or 410: a tombstone, with no markdown or json. */
  gone: boolean;
  /** The page's markdown; null for a tombstone. */
  markdown: string | null;
  /** The JSON-mode answer (the json format's answer for the tracking's schema/prompt); null when not asked for. */
  json: unknown;
}

/**
 * The page versions of one team (table `page_versions`, migration 0020), as a format plugin receives
 * them in `PluginContext.pageVersions`. `tag` null is the default history; each tag is a separate one.
 * URLs are compared normalized (fragment dropped, query parameters sorted).
 */
export interface PageVersionStore {
  /** The latest kept version of `url` under `tag`, or undefined when none is kept. */
  latest(url: string, tag: string | null): Promise<PageVersion | undefined>;
  /** Keeps `version` as the latest of `url` under `tag`, replacing the one before. */
  keep(url: string, tag: string | null, version: PageVersion): Promise<void>;
}

/** compat.md §2.1 `changeStatus`. */
export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

/** compat.md §2.1 `visibility`: `visible` when the URL was reached by a request or a crawl link, `hidden` when known only from history. */
export type PageVisibility = 'visible' | 'hidden';

/** One line of a diff hunk, in the parse-diff shape the SDK types (`diff.json.files[].chunks[].changes[]`). */
export type DiffChange =
  | { type: 'normal'; normal: true; ln1: number; ln2: number; content: string }
  | { type: 'add'; add: true; ln: number; content: string }
  | { type: 'del'; del: true; ln: number; content: string };

/** A `git-diff` mode answer: the unified diff text and its parse-diff structure (firecrawl SDK `changeTracking.diff`). */
export interface GitDiff {
  text: string;
  json: {
    files: {
      from: string | null;
      to: string | null;
      chunks: { content: string; changes: DiffChange[]; oldStart: number; oldLines: number; newStart: number; newLines: number }[];
      additions: number;
      deletions: number;
    }[];
  };
}

/** A `json` mode answer: each changed field (a dotted path for nested objects) with both values. */
export type JsonFieldChanges = Record<string, { previous: unknown; current: unknown }>;

/** The document's `changeTracking` (compat.md §2.1). `diff` and `json` only when the status is `changed`. */
export interface ChangeTracking {
  /** ISO-8601 time of the version compared against; null when there was none. */
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  visibility: PageVisibility;
  diff?: GitDiff;
  json?: JsonFieldChanges;
}
