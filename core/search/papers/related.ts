/**
 * Related papers (`GET /v2/search/research/papers/{id}/similar`, compat.md §11.2): papers sharing the
 * seed's title and abstract terms (`similar`), papers whose references include the seed (`citers`),
 * and papers the seed cites (`references`); each candidate is reranked by the caller's intent.
 */
import type { Queryable } from '../../db/client.ts';
import { anyWords, toResult, type PaperResult, type PaperRow as Row } from './store.ts';

const COLUMNS = 'id, primary_id, ids, title, abstract, authors, categories, created_date, updated_date, body, refs, pdf_url, url';

export type SimilarMode = 'similar' | 'citers' | 'references';

/**
 * Papers related to a seed: `similar` (sharing title/abstract terms), `citers` (papers whose
 * references include the seed), `references` (papers the seed cites), each reranked by the intent.
 * @returns the top `k` and the size of the candidate pool before truncation
 */
export async function relatedPapers(db: Queryable, seed: Row, intent: string, mode: SimilarMode, k: number): Promise<{ results: PaperResult[]; poolSize: number }> {
  const seedIds = Object.entries(seed.ids).flatMap(([ns, vs]) => vs.map((v) => `${ns}:${v}`));
  const params: unknown[] = [seed.id, anyWords(intent)];
  let structural: string;
  let where: string;
  if (mode === 'citers') {
    params.push(seedIds.length ? seedIds : ['-']);
    where = `refs ?| $3::text[]`;
    structural = '1';
  } else if (mode === 'references') {
    const conds = seed.refs.map((ref) => {
      const [ns, ...rest] = ref.split(':');
      params.push({ [ns]: [rest.join(':')] });
      return `ids @> $${params.length}::jsonb`;
    });
    where = conds.length ? `(${conds.join(' OR ')})` : 'false';
    structural = '1';
  } else {
    params.push(seed.title + ' ' + seed.abstract.slice(0, 2000));
    where = `tsv @@ replace(plainto_tsquery('english', $3)::text, '&', '|')::tsquery`;
    structural = `ts_rank_cd(tsv, replace(plainto_tsquery('english', $3)::text, '&', '|')::tsquery, 32)`;
  }
  const rows = await db.query<Row & { structural: number; semantic: number }>(
    `SELECT ${COLUMNS}, ${structural} AS structural, ts_rank_cd(tsv, websearch_to_tsquery('english', $2), 32) AS semantic
     FROM papers WHERE id <> $1 AND ${where} ORDER BY structural DESC LIMIT 2000`,
    params,
  );
  const scored = rows
    .map((r) => ({ r, score: Number(r.structural) + Number(r.semantic) }))
    .sort((a, b) => b.score - a.score);
  return {
    poolSize: scored.length,
    results: scored.slice(0, k).map(({ r, score }) => ({
      ...toResult({ ...r, score }),
      signals: { structural: round(r.structural), semantic: round(r.semantic), articleRank: 0, seedOverlap: 1 },
    })),
  };
}

function round(n: number): number {
  return Math.round(Number(n) * 10_000) / 10_000;
}
