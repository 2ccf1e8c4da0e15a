/**
 * docs-search (interface.md "Support records"; compat.md §16): BM25 retrieval (minisearch) over the
 * embedded documentation (docs-corpus.ts) plus passages the caller adds (the OpenAPI operations).
 * Without a model the `answer` quotes the best passages; with one (`LanguageModel`) it is written
 * from them and `usage` counts its tokens. Pure service: no Elysia, no HTTP.
 */
import MiniSearch from 'minisearch';
import type { LanguageModel } from '../plugin.ts';
import { embeddedSections, type DocSection } from './docs-corpus.ts';

/** One evidence entry of the docs-search response. */
export interface DocsEvidence {
  pathOrUrl: string;
  reason: string;
}

/** The docs-search response body minus `requestId` and `durationMs`. */
export interface DocsAnswer {
  answer: string;
  evidence: DocsEvidence[];
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
}

const STOP = new Set(
  'a an and are as at be by can do does for from how i in is it me my of on or set should the to what when where which who why will with you your there this that use using'.split(' '),
);

/** Lower-case, drop stop words, and fold simple English suffixes so "proxies" meets "proxy". */
export function term(word: string): string | null {
  const w = word.toLowerCase().replace(/^[`'"(]+|[`'")]+$/g, '');
  if (w.length < 2 || STOP.has(w)) return null;
  return w
    .replace(/ies$/, 'y')
    .replace(/(ing|ed)$/, '')
    .replace(/(?<=[a-z]{3})s$/, '');
}

/** A built index; build once per process (the corpus is embedded, so it never changes). */
export class DocsIndex {
  private readonly search: MiniSearch<DocSection>;
  private readonly byId = new Map<string, DocSection>();

  constructor(sections: DocSection[]) {
    this.search = new MiniSearch<DocSection>({
      fields: ['title', 'text'],
      storeFields: [],
      tokenize: (s) => s.split(/[^A-Za-z0-9_]+/),
      processTerm: term,
      searchOptions: { boost: { title: 2 }, combineWith: 'OR' },
    });
    for (const s of sections) this.byId.set(s.id, s);
    this.search.addAll(sections);
  }

  /** The best sections for `question`, at most one per `pathOrUrl`, best first. */
  query(question: string, limit = 5): { section: DocSection; score: number; terms: string[] }[] {
    const seen = new Set<string>();
    const out: { section: DocSection; score: number; terms: string[] }[] = [];
    for (const hit of this.search.search(question)) {
      const section = this.byId.get(String(hit.id))!;
      if (seen.has(section.pathOrUrl)) continue;
      seen.add(section.pathOrUrl);
      out.push({ section, score: hit.score, terms: hit.terms });
      if (out.length >= limit) break;
    }
    return out;
  }
}

/** The index over the embedded pages plus `extra` passages. */
export function buildDocsIndex(extra: DocSection[] = []): DocsIndex {
  return new DocsIndex([...embeddedSections(), ...extra]);
}

const QUOTE_CHARS = 600;

function quote(s: DocSection): string {
  const body = s.text.length > QUOTE_CHARS ? `${s.text.slice(0, QUOTE_CHARS).trimEnd()} …` : s.text;
  return `From ${s.pathOrUrl} (${s.title}):\n${body.split('\n').map((l) => `> ${l}`).join('\n')}`;
}

/**
 * Answers `question` from the index. Without `model` the answer is the three best passages quoted
 * (deterministic, usage 0); with it, the model writes the answer from those passages.
 * @throws TrawlError from the model (UPSTREAM_ERROR 502, GATEWAY_TIMEOUT 504) when one is given
 */
export async function searchDocs(index: DocsIndex, question: string, opts: { model?: LanguageModel; signal?: AbortSignal } = {}): Promise<DocsAnswer> {
  const hits = index.query(question, 5);
  const evidence = hits.map((h) => ({ pathOrUrl: h.section.pathOrUrl, reason: `"${h.section.title}" matches ${h.terms.join(', ')} (score ${h.score.toFixed(1)})` }));
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  if (hits.length === 0) return { answer: 'No passage of the documentation matches this question; try other words (a variable, an error code, an endpoint).', evidence, usage };
  const quoted = hits.slice(0, 3).map((h) => quote(h.section)).join('\n\n');
  if (!opts.model) return { answer: quoted, evidence, usage };
  const res = await opts.model.chat({
    purpose: 'support:docs-search',
    maxTokens: 600,
    signal: opts.signal,
    messages: [
      { role: 'system', content: 'Answer the question about Trawl from the documentation passages only; cite the passage paths. Say so when they do not answer it.' },
      { role: 'user', content: `Passages:\n\n${quoted}\n\nQuestion: ${question}` },
    ],
  });
  const text = typeof res.message.content === 'string' && res.message.content.trim() ? res.message.content : quoted;
  const { promptTokens: inputTokens, completionTokens: outputTokens } = res.usage;
  return { answer: text, evidence, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
}
