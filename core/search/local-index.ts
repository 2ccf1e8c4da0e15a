/**
 * The local search index: PostgreSQL full-text search over the pages this instance has scraped
 * (table `search_index`, migration 0004). Works the same on PGlite and PostgreSQL. Queries keep web
 * search habits: all words must match first (websearch syntax: "phrases", -word, or), then pages
 * matching any word fill the remaining places; `site:`/`filetype:` operators, time filters, language
 * and safe search become SQL conditions. Snippets come from `ts_headline` over the stored text. Page
 * and query text are analyzed in JavaScript (analyzer.ts); the database stores and matches lexemes.
 *
 * The index is per team (issue 15 item 3; migration 0011): a row belongs to the team whose scrape
 * indexed it, and a search reads only the teams it is given (core/search/visibility.ts: the caller's
 * own team and the teams the operator made public).
 */
import type { Queryable } from '../db/client.ts';
import type { SearchIndexKind } from '../db/schema/search.ts';
import type { ParsedQuery } from './operators.ts';
import { pageTsvector, toTsquery } from './analyzer.ts';

export interface IndexedPage {
  /** Team whose scrape produced the page; only searches that may read this team's rows find it. */
  teamId: string;
  url: string;
  host: string;
  path: string;
  title: string;
  description: string;
  content: string;
  kind: SearchIndexKind;
  filetype: string;
  language?: string;
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
  adult: boolean;
  publishedAt?: Date;
  /**
   * Hash of what the row was made from (index-feed.ts `sourceHash`), stored so that a page crawled
   * again unchanged can be skipped before any work; absent: unknown (a changed row then stores null).
   */
  sourceHash?: string;
}

/** Inserts or refreshes a page (keyed by team and URL). */
export async function upsertPage(db: Queryable, p: IndexedPage): Promise<void> {
  await upsertPages(db, [p]);
}

/** Escaped NUL characters (`\u0000` not preceded by an escaping backslash) in JSON text. */
const JSON_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * Inserts or refreshes pages (keyed by team and URL) in one statement; of two rows with the same key the later
 * one is written. The tsvector of each row (title A, description B, content C) is computed here
 * (analyzer.ts), so the database parses no text. A row whose text and metadata are unchanged (a page
 * crawled again) is left as it is, `updated_at` included (it records the last change): rewriting it
 * would put a new version of the row into all five indexes, lexemes included, for nothing (bench:
 * 1,169 unchanged pg-docs pages, 0.73 CPU s of database work against 0.36). A row whose only change is
 * a new `sourceHash` is rewritten once to record it (rows written before migration 0022).
 */
export async function upsertPages(db: Queryable, pages: readonly IndexedPage[]): Promise<void> {
  const statement = upsertPagesStatement(pages);
  if (statement) await db.query(statement.sql, statement.params);
}

/**
 * The statement of `upsertPages`, with the JavaScript work done (tsvectors, JSON), so that a caller
 * can prepare the next batch while the database runs this one. Undefined when `pages` is empty.
 */
export function upsertPagesStatement(pages: readonly IndexedPage[]): { sql: string; params: [string] } | undefined {
  const rows = [...new Map(pages.map((p) => [`${p.teamId} ${p.url}`, p])).values()].map((p) => ({ ...p, tsv: pageTsvector(p) }));
  if (rows.length === 0) return undefined;
  // One JSON parameter for the batch: both drivers send it as text, whatever the column types. Read
  // as `json`, not `jsonb`: the rows are taken apart once, so building jsonb's binary form (every
  // object's keys sorted, ~2 MB of text per batch) would be work for nothing.
  // NUL characters cannot be stored in text columns: they are dropped (from the JSON text, which
  // keeps JSON.stringify on its fast path; a replacer function makes it several times slower).
  let json = JSON.stringify(rows);
  if (json.includes('\\u0000')) json = json.replace(JSON_NUL, '$1');
  return {
    sql: `INSERT INTO search_index (team_id, url, host, path, title, description, content, kind, filetype, language, image_url,
       image_width, image_height, adult, published_at, updated_at, tsv, analyzer, source_hash)
     SELECT x."teamId", x.url, x.host, x.path, x.title, x.description, x.content, x.kind, x.filetype, x.language, x."imageUrl",
       x."imageWidth", x."imageHeight", x.adult, x."publishedAt", now(), x.tsv::tsvector, ${ANALYZER_VERSION}, x."sourceHash"
     FROM json_to_recordset($1::json) AS x("teamId" text, url text, host text, path text, title text, description text, content text, kind text,
       filetype text, language text, "imageUrl" text, "imageWidth" int, "imageHeight" int, adult boolean, "publishedAt" timestamptz,
       tsv text, "sourceHash" text)
     ON CONFLICT (team_id, url) DO UPDATE SET host = EXCLUDED.host, path = EXCLUDED.path, title = EXCLUDED.title,
       description = EXCLUDED.description, content = EXCLUDED.content, kind = EXCLUDED.kind, filetype = EXCLUDED.filetype,
       language = EXCLUDED.language, image_url = EXCLUDED.image_url, image_width = EXCLUDED.image_width,
       image_height = EXCLUDED.image_height, adult = EXCLUDED.adult,
       published_at = coalesce(EXCLUDED.published_at, search_index.published_at), updated_at = now(),
       tsv = EXCLUDED.tsv, analyzer = EXCLUDED.analyzer, source_hash = EXCLUDED.source_hash
     WHERE (search_index.analyzer, search_index.host, search_index.path, search_index.kind, search_index.filetype, search_index.language,
         search_index.image_url, search_index.image_width, search_index.image_height, search_index.adult, search_index.title,
         search_index.description, search_index.content)
       IS DISTINCT FROM (EXCLUDED.analyzer, EXCLUDED.host, EXCLUDED.path, EXCLUDED.kind, EXCLUDED.filetype, EXCLUDED.language,
         EXCLUDED.image_url, EXCLUDED.image_width, EXCLUDED.image_height, EXCLUDED.adult, EXCLUDED.title, EXCLUDED.description, EXCLUDED.content)
       OR (EXCLUDED.published_at IS NOT NULL AND EXCLUDED.published_at IS DISTINCT FROM search_index.published_at)
       OR (EXCLUDED.source_hash IS NOT NULL AND EXCLUDED.source_hash IS DISTINCT FROM search_index.source_hash)`,
    params: [json],
  };
}

/**
 * Version of analyzer.ts that `search_index.analyzer` records per row. Rows with null there (written
 * by the database's `to_tsvector` before migration 0008) are analyzed again by `reanalyzeStaleRows`.
 * When the analyzer's rules change: raise it, and add a migration that sets `analyzer` to null on
 * rows of older versions.
 */
export const ANALYZER_VERSION = 1;

/**
 * Recomputes the tsvector of up to `batch` rows still to be analyzed (`analyzer` null; found through
 * the partial index search_index_unanalyzed_idx).
 * @returns the number of rows updated (0: none left)
 */
export async function reanalyzeStaleRows(db: Queryable, batch = 200): Promise<number> {
  const rows = await db.query<{ team_id: string; url: string; title: string; description: string; content: string }>(
    `SELECT team_id, url, title, description, content FROM search_index
     WHERE analyzer IS NULL LIMIT ${Math.floor(batch)}`,
  );
  if (rows.length === 0) return 0;
  const updates = rows.map((r) => ({ team: r.team_id, url: r.url, tsv: pageTsvector(r) }));
  await db.query(
    `UPDATE search_index s SET tsv = x.tsv::tsvector, analyzer = ${ANALYZER_VERSION}
     FROM jsonb_to_recordset($1::jsonb) AS x(team text, url text, tsv text) WHERE s.team_id = x.team AND s.url = x.url`,
    [JSON.stringify(updates)],
  );
  return rows.length;
}

export interface LocalQuery {
  /** Teams whose rows the search may read (core/search/visibility.ts); empty: nothing is found. */
  teams: readonly string[];
  parsed: ParsedQuery;
  source: 'web' | 'news' | 'images';
  limit: number;
  /** Publication (else index) time bounds, ms since epoch. */
  from?: number;
  to?: number;
  sortByDate?: boolean;
  /** Language prefix (`en`); pages in another known language are left out. */
  lang?: string;
  safe?: boolean;
  /** Query-relevant snippet (true) or the stored description (false). */
  highlights: boolean;
}

export interface LocalHit {
  url: string;
  title: string;
  description: string;
  headline: string | null;
  publishedAt: Date | null;
  updatedAt: Date;
  imageUrl: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
}

/** Builds the WHERE conditions other than the text match; `params` receives their values. */
function filters(q: LocalQuery, params: unknown[]): string[] {
  const where: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const site = (c: { host: string; path: string }) => {
    const host = c.host.replace(/^www\./, '');
    const hostSql = `(host = ${p(host)} OR host = ${p(`www.${host}`)} OR host LIKE ${p(`%.${host.replace(/[\\%_]/g, '\\$&')}`)})`;
    if (!c.path) return hostSql;
    return `(${hostSql} AND (path = ${p(c.path)} OR path LIKE ${p(`${c.path.replace(/[\\%_]/g, '\\$&')}/%`)}))`;
  };
  for (const group of q.parsed.groups) {
    where.push(`(${group.map((c) => (c.kind === 'site' ? site(c) : `filetype = ${p(c.ext)}`)).join(' OR ')})`);
  }
  for (const e of q.parsed.exclude) where.push(`NOT ${site(e)}`);
  if (q.source === 'news') where.push(`kind = 'news'`);
  if (q.source === 'images') {
    where.push('image_url IS NOT NULL');
    const size = q.parsed.imageSize;
    if (size?.larger) where.push(`image_width >= ${p(size.width)} AND image_height >= ${p(size.height)}`);
    else if (size) where.push(`image_width = ${p(size.width)} AND image_height = ${p(size.height)}`);
  }
  if (q.from !== undefined) where.push(`coalesce(published_at, updated_at) >= ${p(new Date(q.from))}`);
  if (q.to !== undefined) where.push(`coalesce(published_at, updated_at) <= ${p(new Date(q.to))}`);
  if (q.lang) where.push(`(language IS NULL OR language LIKE ${p(`${q.lang.toLowerCase().slice(0, 2)}%`)})`);
  if (q.safe) where.push('NOT adult');
  return where;
}

/** Pages the any-word fill ranks at most (bounds the cost of common words; bench/search). */
export const OR_FILL_CAP = 1000;

/**
 * Searches the index.
 * @returns at most `limit` hits, best first (newest first with `sortByDate`)
 */
export async function searchPages(db: Queryable, q: LocalQuery): Promise<LocalHit[]> {
  if (q.teams.length === 0) return [];
  /** `cap`: rank at most this many matching pages (the any-word fill, where common words match most pages). */
  const run = async (tsquery: string, exclude: string[], limit: number, cap?: number): Promise<LocalHit[]> => {
    const params: unknown[] = [tsquery, [...q.teams]];
    const where = [`tsv @@ $1::tsquery`, `team_id = ANY($2::text[])`, ...filters(q, params)];
    if (exclude.length) {
      params.push(exclude);
      where.push(`url <> ALL($${params.length}::text[])`);
    }
    params.push(limit);
    const limitParam = `$${params.length}`;
    const capSql = cap ? ` LIMIT ${Math.floor(cap)}` : '';
    const [inner, outer] = q.sortByDate
      ? ['coalesce(published_at, updated_at) DESC, rank DESC', 'coalesce(s.published_at, s.updated_at) DESC, top.rank DESC']
      : ['rank DESC, coalesce(published_at, updated_at) DESC', 'top.rank DESC, coalesce(s.published_at, s.updated_at) DESC'];
    const headline = q.highlights
      ? `ts_headline('english', left(s.content, 20000), $1::tsquery, 'MaxWords=35, MinWords=15, MaxFragments=1, StartSel="", StopSel=""')`
      : 'NULL';
    const matches = `SELECT team_id, url, published_at, updated_at, ts_rank_cd(tsv, $1::tsquery, 32) AS rank FROM search_index
           WHERE ${where.join(' AND ')}${capSql}`;
    // Several teams may have indexed the same URL: one row per URL, its best ranked.
    const candidates = q.teams.length > 1 ? `SELECT DISTINCT ON (url) * FROM (${matches}) m ORDER BY url, rank DESC` : matches;
    return db.query<LocalHit>(
      `WITH top AS MATERIALIZED (
         SELECT team_id, url, rank FROM (${candidates}) c
         ORDER BY ${inner} LIMIT ${limitParam})
       SELECT s.url, s.title, s.description, ${headline} AS headline,
              s.published_at AS "publishedAt", s.updated_at AS "updatedAt", s.image_url AS "imageUrl",
              s.image_width AS "imageWidth", s.image_height AS "imageHeight"
       FROM top JOIN search_index s ON s.team_id = top.team_id AND s.url = top.url ORDER BY ${outer}`,
      params,
    );
  };
  const tsquery = toTsquery(q.parsed.text);
  if (tsquery === null) return []; // nothing searchable (only stop words, punctuation or negations)
  const all = await run(tsquery, [], q.limit);
  // Fewer hits than asked with every word required: fill up with pages matching any word, ranked after
  // (unless that is the same query: one term, or terms that were all alternatives already).
  if (all.length >= q.limit) return all;
  const anyWord = toTsquery(q.parsed.text, 'any')!;
  if (anyWord === tsquery) return all;
  const extra = await run(anyWord, all.map((h) => h.url), q.limit - all.length, OR_FILL_CAP);
  return [...all, ...extra];
}
