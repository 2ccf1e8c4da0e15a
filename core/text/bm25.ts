/**
 * BM25 ranking of a page's passages or sentences against a query (Robertson/Spärck Jones, k1 = 1.2,
 * b = 0.75), for the deterministic `question`, `query` and `highlights` answers (issue 18 scope 3).
 * Words are the local search index's lexemes (core/search/analyzer.ts: lower-cased, English stop
 * words dropped, Porter2 stems), so "running" matches "runs".
 */
import { lexemeOf } from '../search/analyzer.ts';

const K1 = 1.2;
const B = 0.75;

/** The lexemes of a text in order (stop words left out). */
export function lexemes(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) {
    const l = lexemeOf(word);
    if (l) out.push(l);
  }
  return out;
}

/**
 * BM25 score of each document for the query.
 * @param docs texts to rank
 * @returns scores in `docs` order (0: no query word occurs)
 */
export function bm25Scores(query: string, docs: readonly string[]): number[] {
  const q = [...new Set(lexemes(query))];
  const tokenized = docs.map(lexemes);
  const avg = tokenized.reduce((n, d) => n + d.length, 0) / Math.max(1, tokenized.length) || 1;
  const df = new Map<string, number>();
  for (const d of tokenized) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return tokenized.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of q) {
      const f = tf.get(t);
      if (!f) continue;
      const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg));
    }
    return score;
  });
}

/** How many distinct query lexemes a text holds. */
export function queryCoverage(query: string, text: string): number {
  const words = new Set(lexemes(text));
  return [...new Set(lexemes(query))].filter((l) => words.has(l)).length;
}
