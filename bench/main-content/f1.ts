/**
 * Text-overlap scores used to judge main-content extraction: token F1 (bag of `\w+` tokens, lower
 * case) and shingle F1 (4-grams of tokens, as the scrapinghub article-extraction-benchmark computes it).
 * `markdownToText` strips markdown syntax and link/image URLs so extraction quality can be measured
 * apart from link syntax.
 */

export interface Score {
  precision: number;
  recall: number;
  f1: number;
}

const TOKEN = /[\p{L}\p{N}_]+/gu;

export function tokens(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []) as string[];
}

function overlap(pred: Map<string, number>, gold: Map<string, number>): Score {
  let tp = 0;
  let np = 0;
  let ng = 0;
  for (const n of pred.values()) np += n;
  for (const n of gold.values()) ng += n;
  for (const [k, n] of pred) tp += Math.min(n, gold.get(k) ?? 0);
  if (np === 0 && ng === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = np ? tp / np : 0;
  const recall = ng ? tp / ng : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

function counts(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

/** Bag-of-tokens precision/recall/F1 of `pred` against `gold`. */
export function tokenF1(pred: string, gold: string): Score {
  return overlap(counts(tokens(pred)), counts(tokens(gold)));
}

/** Precision/recall/F1 over token 4-gram shingles. */
export function shingleF1(pred: string, gold: string, n = 4): Score {
  const grams = (t: string[]) => {
    const out: string[] = [];
    for (let i = 0; i < Math.max(1, t.length - n + 1); i++) out.push(t.slice(i, i + n).join(' '));
    return out.filter(Boolean);
  };
  return overlap(counts(grams(tokens(pred))), counts(grams(tokens(gold))));
}

/** Markdown to plain text: links keep their text, images their alt, URLs and syntax go. */
export function markdownToText(md: string): string {
  return md
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^```.*$/gm, '')
    .replace(/[*`|~]+/g, ' ')
    .replace(/^\s*(#{1,6}|>|-)\s/gm, ' ')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Mean of a list (0 for none). */
export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
