/**
 * Deterministic answers from a page's text (issue 18 scope 3), no model involved:
 * - `extractiveSummary`: the sentences that best represent the main content, in page order. Each
 *   sentence of a prose passage (headings, short fragments and table rows left out) scores the mean
 *   page frequency of its lexemes (the words the page is about), times a lead bonus (earlier
 *   sentences state the topic: 1 + 1/(1 + position/5)); the top `maxSentences` are kept.
 * - `bestPassage`: the passage with the highest BM25 score for a question that shares at least half
 *   of the question's words (at least one); null when none does.
 * - `bestSentences`: the top BM25 sentences (each sharing a query word), in page order.
 */
import { bm25Scores, lexemes, queryCoverage } from './bm25.ts';
import { passagesOf, sentencesOf } from './passages.ts';

/** Shortest sentence a summary takes, chars (menus and captions are shorter). */
const MIN_SENTENCE_CHARS = 40;

/** A sentence of the page's prose with its position. */
interface Sentence { text: string; order: number }

function proseSentences(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  for (const p of passagesOf(markdown)) {
    if (p.heading) continue;
    for (const s of sentencesOf(p.text)) if (s.length >= MIN_SENTENCE_CHARS && /[a-z]/.test(s)) out.push({ text: s, order: out.length });
  }
  return out;
}

/**
 * An extractive summary of the page.
 * @returns the chosen sentences joined by spaces, in page order; null when the page has no prose
 */
export function extractiveSummary(markdown: string, maxSentences = 4): string | null {
  const sentences = proseSentences(markdown);
  if (!sentences.length) return null;
  const freq = new Map<string, number>();
  const words = sentences.map((s) => lexemes(s.text));
  for (const w of words) for (const l of w) freq.set(l, (freq.get(l) ?? 0) + 1);
  const scored = sentences.map((s, i) => {
    const w = words[i];
    const mean = w.length ? w.reduce((n, l) => n + (freq.get(l)! - 1), 0) / w.length : 0;
    return { ...s, score: (mean + 0.1) * (1 + 1 / (1 + s.order / 5)) };
  });
  const chosen = [...scored].sort((a, b) => b.score - a.score).slice(0, maxSentences).sort((a, b) => a.order - b.order);
  return chosen.map((s) => s.text).join(' ');
}

/** The passage of the page that best answers `question`, verbatim; null when nothing matches. */
export function bestPassage(markdown: string, question: string): string | null {
  const passages = passagesOf(markdown).filter((p) => !p.heading);
  if (!passages.length) return null;
  const scores = bm25Scores(question, passages.map((p) => p.text));
  const needed = Math.max(1, Math.ceil(new Set(lexemes(question)).size / 2));
  let best = -1;
  for (let i = 0; i < passages.length; i++) {
    if (scores[i] <= 0 || queryCoverage(question, passages[i].text) < needed) continue;
    if (best < 0 || scores[i] > scores[best]) best = i;
  }
  return best < 0 ? null : passages[best].text;
}

/** The `max` sentences of the page that best match `query`, verbatim, in page order ([] when none matches). */
export function bestSentences(markdown: string, query: string, max = 3): string[] {
  const sentences: Sentence[] = [];
  for (const p of passagesOf(markdown)) for (const s of sentencesOf(p.text)) sentences.push({ text: s, order: sentences.length });
  const scores = bm25Scores(query, sentences.map((s) => s.text));
  return sentences
    .map((s, i) => ({ ...s, score: scores[i] }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .sort((a, b) => a.order - b.order)
    .map((s) => s.text);
}
