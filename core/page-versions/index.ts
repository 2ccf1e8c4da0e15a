/**
 * Page versions (issue 20 scope 1; table `page_versions`, migration 0020): the latest version of each
 * page per team, URL and tag, kept in the database (not the cache, which can expire), which change
 * tracking compares the next scrape against. The format plugin reaches it through
 * `PluginContext.pageVersions` (bound to the job's team); monitors call `recordPageGone` for a URL
 * that is gone without a document to scrape, and `knownPages` to list a history.
 *
 * Status rules (`changeStatusOf`), a page being "gone" when it answers 404 or 410 (`pageGone`):
 * no kept version → `new`; live → gone → `removed`; gone → gone → `same`; gone → live → `new` (it
 * appeared again); live → live → `same` or `changed` by content.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { normalizeTargetUrl } from '../pipeline/scrape-options.ts';
import type { ChangeStatus, ChangeTracking, PageVersion, PageVersionStore, PageVisibility } from './types.ts';

export type { ChangeStatus, ChangeTracking, DiffChange, GitDiff, JsonFieldChanges, PageVersion, PageVersionStore, PageVisibility } from './types.ts';

/** Whether a target status code means the page is gone (compat.md §2.1 `removed`): 404 and 410. */
export function pageGone(statusCode: number): boolean {
  return statusCode === 404 || statusCode === 410;
}

/**
 * The change status of the current version against the kept one (rules in the module comment).
 * @param previous the latest kept version, undefined when none
 * @param current  whether the page is gone now, and (for a live page after a live one) whether its content differs
 */
export function changeStatusOf(previous: PageVersion | undefined, current: { gone: boolean; changed: boolean }): ChangeStatus {
  if (!previous) return 'new';
  if (current.gone) return previous.gone ? 'same' : 'removed';
  if (previous.gone) return 'new';
  return current.changed ? 'changed' : 'same';
}

/**
 * The URL a version is kept under: `http://` added when it has no scheme (as a scrape does), fragment
 * dropped, query parameters sorted by name (stable), host lower-cased by `URL`. A string that is no
 * URL is kept as given (trimmed).
 */
export function versionUrl(url: string): string {
  try {
    const u = new URL(normalizeTargetUrl(url));
    u.hash = '';
    const params = [...u.searchParams.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    u.search = '';
    for (const [k, v] of params) u.searchParams.append(k, v);
    return u.href;
  } catch {
    return url.trim();
  }
}

const urlKey = (url: string) => createHash('sha256').update(versionUrl(url)).digest('hex');

interface Row {
  scraped_at: Date;
  gone: boolean;
  markdown: string | null;
  json: unknown;
}

/**
 * The page versions of `teamId` over the `page_versions` table.
 * @param db any handle of the database (pool or transaction)
 */
export function pageVersionStore(db: Queryable, teamId: string): PageVersionStore {
  return {
    async latest(url, tag) {
      const [row] = await db.query<Row>(
        'SELECT scraped_at, gone, markdown, json FROM page_versions WHERE team_id = $1 AND tag = $2 AND url_key = $3',
        [teamId, tag ?? '', urlKey(url)],
      );
      return row ? { scrapedAt: new Date(row.scraped_at), gone: row.gone, markdown: row.markdown, json: row.json ?? null } : undefined;
    },
    async keep(url, tag, version) {
      await db.query(
        `INSERT INTO page_versions (team_id, tag, url_key, url, scraped_at, gone, markdown, json)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
         ON CONFLICT (team_id, tag, url_key) DO UPDATE SET
           url = EXCLUDED.url, scraped_at = EXCLUDED.scraped_at, gone = EXCLUDED.gone, markdown = EXCLUDED.markdown, json = EXCLUDED.json`,
        [teamId, tag ?? '', urlKey(url), versionUrl(url), version.scrapedAt, version.gone, version.markdown,
          version.json === null || version.json === undefined ? null : JSON.stringify(version.json)],
      );
    },
  };
}

/** What `recordPageGone` needs: whose history, which URL and tag. */
export interface PageGoneInput {
  teamId: string;
  /** The page's URL as scraped (normalized the same way as the format's: fragment dropped, query sorted). */
  url: string;
  /** The history (the format's `tag`); null or omitted: the default one. */
  tag?: string | null;
  /** When the page was found gone (default now). */
  at?: Date;
  /** Default `visible`; `hidden` for a URL known only from history (no longer linked). */
  visibility?: PageVisibility;
  /** Zero data retention: compare, keep nothing. */
  zeroDataRetention?: boolean;
}

/**
 * Records that a page is gone (a 404/410, or a URL a monitor no longer finds) without scraping it,
 * and answers its change tracking: `removed` after a live version, `same` when it was already gone,
 * `new` when the history knew nothing of it. Keeps a tombstone (replacing the live version) unless
 * zero data retention.
 * @returns the `changeTracking` object a document of this page would carry (no diff, no json)
 * @throws whatever the database raises
 */
export async function recordPageGone(db: Queryable, input: PageGoneInput): Promise<ChangeTracking> {
  const store = pageVersionStore(db, input.teamId);
  const tag = input.tag ?? null;
  const previous = await store.latest(input.url, tag);
  const at = input.at ?? new Date();
  if (!input.zeroDataRetention) await store.keep(input.url, tag, { scrapedAt: at, gone: true, markdown: null, json: null });
  return {
    previousScrapeAt: previous ? previous.scrapedAt.toISOString() : null,
    changeStatus: changeStatusOf(previous, { gone: true, changed: false }),
    visibility: input.visibility ?? 'visible',
  };
}

/** One page of a history, as `knownPages` lists it. */
export interface KnownPage {
  url: string;
  scrapedAt: Date;
  gone: boolean;
}

/**
 * The pages a team's history under `tag` knows, oldest scrape first: a monitor compares them with
 * what a crawl found, to report those no longer found.
 * @param limit most pages listed (default 10000)
 */
export async function knownPages(db: Queryable, teamId: string, tag: string | null, limit = 10_000): Promise<KnownPage[]> {
  const rows = await db.query<{ url: string; scraped_at: Date; gone: boolean }>(
    'SELECT url, scraped_at, gone FROM page_versions WHERE team_id = $1 AND tag = $2 ORDER BY scraped_at, url_key LIMIT $3',
    [teamId, tag ?? '', limit],
  );
  return rows.map((r) => ({ url: r.url, scrapedAt: new Date(r.scraped_at), gone: r.gone }));
}
