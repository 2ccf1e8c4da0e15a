/**
 * The local research paper index (`papers` table, migration 0004): storing paper records (merging
 * records that share any id, so an arXiv abstract page and its PDF become one paper), full-text
 * search over titles, abstracts and authors with the filters of compat.md §11.2, lookup by any id
 * form, and in-body passages. Related papers are in related.ts.
 */
import type { Queryable } from '../../db/client.ts';
import { normalizeArxivId, normalizeDoi, type PaperRecord } from './extract.ts';
import { safeDecode } from '../operators.ts';

/** A ranked paper (compat.md §11.2 `results[]`). */
export interface PaperResult {
  paperId: string;
  primaryId: string;
  ids: Record<string, string[]>;
  title: string;
  abstract: string;
  score: number;
  signals?: { structural: number; semantic: number; articleRank: number; seedOverlap: number };
}

/** Paper metadata (`GET …/papers/{id}` `paper`). */
export interface PaperMetadata {
  paperId: string;
  ids: Record<string, string[]>;
  title: string;
  abstract: string;
  authors?: string;
  categories?: string[];
  createdDate?: string;
  updateDate?: string;
}

export interface PaperFilters {
  /** Substrings that must all occur in the author list (case-insensitive). */
  authors?: string[];
  /** Categories that must all be present. */
  categories?: string[];
  /** Inclusive `YYYY-MM-DD` bounds on the created or updated date. */
  from?: string;
  to?: string;
}

interface Row {
  id: number;
  primary_id: string;
  ids: Record<string, string[]>;
  title: string;
  abstract: string;
  authors: string;
  categories: string[];
  created_date: string | null;
  updated_date: string | null;
  body: string;
  refs: string[];
  pdf_url: string | null;
  url: string | null;
}

const COLUMNS = 'id, primary_id, ids, title, abstract, authors, categories, created_date, updated_date, body, refs, pdf_url, url';

function idConditions(ids: Record<string, string[]>, params: unknown[]): string[] {
  const out: string[] = [];
  for (const [ns, values] of Object.entries(ids)) {
    for (const v of values) {
      params.push({ [ns]: [v] });
      out.push(`ids @> $${params.length}::jsonb`);
    }
  }
  return out;
}

/** Stores a paper, merging it into an existing record that shares any id. */
export async function upsertPaper(db: Queryable, p: PaperRecord): Promise<void> {
  const params: unknown[] = [p.primaryId];
  const conds = [`primary_id = $1`, ...idConditions(p.ids, params)];
  const existing = (await db.query<Row>(`SELECT ${COLUMNS} FROM papers WHERE ${conds.join(' OR ')} ORDER BY id LIMIT 1`, params))[0];
  if (!existing) {
    await db.query(
      `INSERT INTO papers (primary_id, ids, title, abstract, authors, categories, created_date, updated_date, url, pdf_url, body, refs)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (primary_id) DO NOTHING`,
      [p.primaryId, p.ids, p.title, p.abstract, p.authors.join(', '), JSON.stringify(p.categories), p.createdDate ?? null,
        p.updatedDate ?? null, p.url, p.pdfUrl ?? null, p.body, JSON.stringify(p.refs)],
    );
    return;
  }
  const ids: Record<string, string[]> = { ...existing.ids };
  for (const [ns, vs] of Object.entries(p.ids)) ids[ns] = [...new Set([...(ids[ns] ?? []), ...vs])];
  const prefer = p.source === 'citation';
  const pick = (mine: string, theirs: string) => (prefer ? theirs || mine : mine || theirs);
  const primary = ids.arxiv ? `arxiv:${ids.arxiv[0]}` : ids.doi ? `doi:${ids.doi[0]}` : ids.pmid ? `pmid:${ids.pmid[0]}` : existing.primary_id;
  await db.query(
    `UPDATE papers SET primary_id = $2, ids = $3, title = $4, abstract = $5, authors = $6, categories = $7, created_date = $8,
       updated_date = $9, url = $10, pdf_url = $11, body = $12, refs = $13, indexed_at = now() WHERE id = $1`,
    [existing.id, primary, ids, pick(existing.title, p.title), pick(existing.abstract, p.abstract), pick(existing.authors, p.authors.join(', ')),
      JSON.stringify([...new Set([...existing.categories, ...p.categories])]), existing.created_date ?? p.createdDate ?? null,
      p.updatedDate ?? existing.updated_date, prefer ? p.url : existing.url ?? p.url, existing.pdf_url ?? p.pdfUrl ?? null,
      p.body.length > existing.body.length ? p.body : existing.body, JSON.stringify([...new Set([...existing.refs, ...p.refs])])],
  );
}

/** True when the local index holds at least one paper. */
export async function hasPapers(db: Queryable): Promise<boolean> {
  return (await db.query('SELECT 1 FROM papers LIMIT 1')).length > 0;
}

/** A ranked result of a row; `score` rounded to 4 decimals. */
export function toResult(r: Row & { score?: number }): PaperResult {
  return { paperId: String(r.id), primaryId: r.primary_id, ids: r.ids, title: r.title, abstract: r.abstract, score: Math.round(Number(r.score ?? 0) * 10_000) / 10_000 };
}

/** Paper metadata of a row (omitting unknown fields). */
export function toMetadata(r: Row): PaperMetadata {
  const out: PaperMetadata = { paperId: String(r.id), ids: r.ids, title: r.title, abstract: r.abstract };
  if (r.authors) out.authors = r.authors;
  if (r.categories.length) out.categories = r.categories;
  if (r.created_date) out.createdDate = r.created_date;
  if (r.updated_date) out.updateDate = r.updated_date;
  return out;
}

function filterSql(f: PaperFilters, params: unknown[]): string[] {
  const where: string[] = [];
  for (const a of f.authors ?? []) {
    params.push(`%${a.replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`authors ILIKE $${params.length}`);
  }
  if (f.categories?.length) {
    params.push(JSON.stringify(f.categories));
    where.push(`categories @> $${params.length}::jsonb`);
  }
  if (f.from) {
    params.push(f.from);
    where.push(`(created_date >= $${params.length} OR updated_date >= $${params.length})`);
  }
  if (f.to) {
    params.push(f.to);
    where.push(`(created_date <= $${params.length} OR updated_date <= $${params.length})`);
  }
  return where;
}

/** Words of a natural-language query joined with `or` (papers are ranked by how much they cover). */
export function anyWords(query: string): string {
  return query.split(/\s+/).filter((w) => w && w !== 'or' && w !== 'OR').join(' or ');
}

/**
 * Searches titles, abstracts and authors. Papers matching every word rank first, then by cover
 * density (`ts_rank_cd`); `score` is that rank, plus 1 when every word matched.
 */
export async function searchPaperIndex(db: Queryable, query: string, k: number, filters: PaperFilters = {}): Promise<PaperResult[]> {
  const params: unknown[] = [query, anyWords(query)];
  const where = [`tsv @@ websearch_to_tsquery('english', $2)`, ...filterSql(filters, params)];
  params.push(k);
  const rows = await db.query<Row & { score: number }>(
    `SELECT ${COLUMNS}, ts_rank_cd(tsv, websearch_to_tsquery('english', $2), 32)
              + CASE WHEN tsv @@ websearch_to_tsquery('english', $1) THEN 1 ELSE 0 END AS score
     FROM papers WHERE ${where.join(' AND ')} ORDER BY score DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(toResult);
}

/**
 * Finds a paper by reference: a `paperId`, a namespaced id (`arxiv:`, `doi:`, `pmid:`, `pmcid:`), a
 * bare arXiv id, an arXiv or doi.org URL.
 */
export async function findPaper(db: Queryable, ref: string): Promise<Row | undefined> {
  const r = safeDecode(ref).trim();
  if (/^\d{1,18}$/.test(r)) {
    const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM papers WHERE id = $1`, [Number(r)]);
    if (rows[0]) return rows[0];
  }
  const ids: Record<string, string[]> = {};
  const ns = /^([a-z]+):(.+)$/i.exec(r);
  const arxiv = normalizeArxivId(r);
  const doi = normalizeDoi(r);
  if (arxiv) ids.arxiv = [arxiv];
  else if (doi) ids.doi = [doi];
  else if (ns && ns[1].toLowerCase() !== 'http' && ns[1].toLowerCase() !== 'https') {
    const name = ns[1].toLowerCase();
    ids[name] = [name === 'pmcid' ? ns[2].toUpperCase() : ns[2]];
  }
  const params: unknown[] = [r];
  const conds = ['primary_id = $1', ...idConditions(ids, params)];
  if (/^https?:\/\//i.test(r)) conds.push('url = $1', 'pdf_url = $1');
  return (await db.query<Row>(`SELECT ${COLUMNS} FROM papers WHERE ${conds.join(' OR ')} ORDER BY id LIMIT 1`, params))[0];
}

/** The `k` passages of a paper's text (abstract included) most relevant to `query`. */
export async function paperPassages(db: Queryable, paperId: number, query: string, k: number): Promise<{ text: string; score: number }[]> {
  const rows = await db.query<{ text: string; score: number }>(
    `WITH p AS (SELECT unnest(regexp_split_to_array(abstract || E'\\n\\n' || body, E'\\n\\s*\\n')) AS text FROM papers WHERE id = $1)
     SELECT text, ts_rank_cd(to_tsvector('english', text), websearch_to_tsquery('english', $2), 32) AS score
     FROM p WHERE length(text) > 20 AND to_tsvector('english', text) @@ websearch_to_tsquery('english', $2)
     ORDER BY score DESC LIMIT $3`,
    [paperId, anyWords(query), k],
  );
  return rows.map((r) => ({ text: r.text.trim(), score: Math.round(Number(r.score) * 10_000) / 10_000 }));
}

export type { Row as PaperRow };
