/**
 * The local search index's text analyzer: turns page text into a PostgreSQL `tsvector` literal and a
 * query into a `tsquery` literal, in JavaScript, so the database only stores and matches lexemes.
 * On the pages of the PostgreSQL manual (6 KB of text each), `to_tsvector('english', ...)` costs
 * 0.75 ms per page in PGlite, where it runs as WASM on the one database thread (0.62 ms in
 * PostgreSQL), against 0.2 ms for the analyzer here and 0.1 ms for the database to read its literal
 * (bench/search/analyzer.ts).
 *
 * Rules (the same for pages and queries, so they always agree):
 * - A word is a run of Unicode letters, digits and marks; everything else separates words
 *   (`full-text` is `full`, `text`; `pg_dump` is `pg`, `dump`; `3.14` is `3`, `14`).
 * - Words are lower-cased. Words of letters only that are PostgreSQL's english stop words
 *   (tsearch_data/english.stop) are dropped, the others are stemmed with Porter2 (the Snowball
 *   English stemmer that PostgreSQL's `english` configuration uses: the same stem for all but 3 of
 *   15,285 distinct words of two Debian manuals). Words with digits are kept as they are.
 * - Every word, stop word or not, takes the next position, so phrases keep their gaps (`state of
 *   the art` is `state <3> art`, as in PostgreSQL).
 * Because queries are analyzed here too, `ts_headline` (the database's own parser) still finds the
 * query's words in a page: both sides stem plain words the same way.
 */
import { stem } from 'porter2';

/** PostgreSQL's english stop words (share/tsearch_data/english.stop, 127 words). */
const STOP_WORDS = new Set(
  ('i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its ' +
    'itself they them their theirs themselves what which who whom this that these those am is are was were be been being have ' +
    'has had having do does did doing a an the and but if or because as until while of at by for with about against between ' +
    'into through during before after above below to from up down in out on off over under again further then once here there ' +
    'when where why how all any both each few more most other some such no nor not only own same so than too very s t can will ' +
    'just don should now').split(' '),
);

/** Highest position a tsvector stores (PostgreSQL MAXENTRYPOS - 1); later words share it. */
const MAX_POSITION = 16383;
/** Positions kept per lexeme (PostgreSQL MAXNUMPOS). */
const MAX_POSITIONS_PER_LEXEME = 256;
/** Longer words (data blobs, run-together identifiers) are not indexed, chars. */
const MAX_WORD_CHARS = 100;

const HAS_DIGIT = /\p{N}/u;
/** One code point that is part of a word: Unicode letters, digits and marks (anything else separates words). */
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
/** ASCII codes that are word characters (letters and digits): 1. */
const ASCII_WORD = new Uint8Array(128).map((_, c) => (/[a-zA-Z0-9]/.test(String.fromCharCode(c)) ? 1 : 0));

/** FNV-1a step: the hash of a word so far and its next UTF-16 code unit. */
const hashStep = (hash: number, unit: number): number => Math.imul(hash ^ unit, 16777619);
const HASH_SEED = 2166136261 | 0;

/**
 * Calls `onWord(lower, start, end, hash)` for each word of `text`: the word is
 * `lower.slice(start, end)` of the lower-cased text, and `hash` its FNV-1a hash (hashWord). One scan,
 * cutting nothing: a word already in the vocabulary is found without making a string of it.
 */
function eachWord(text: string, onWord: (lower: string, start: number, end: number, hash: number) => void): void {
  const lower = text.toLowerCase();
  const n = lower.length;
  let start = -1;
  let hash = HASH_SEED;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? lower.charCodeAt(i) : 32;
    let units = 1;
    let isWord: boolean;
    if (c < 128) isWord = ASCII_WORD[c] === 1;
    else {
      let cp = c;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = lower.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
          units = 2;
        }
      }
      isWord = WORD_CHAR.test(String.fromCodePoint(cp));
    }
    if (isWord) {
      if (start < 0) {
        start = i;
        hash = HASH_SEED;
      }
      hash = hashStep(hash, c);
      if (units === 2) hash = hashStep(hash, lower.charCodeAt(i + 1));
    } else if (start >= 0) {
      onWord(lower, start, i, hash);
      start = -1;
    }
    i += units - 1;
  }
}

/** The hash eachWord gives a word. */
function hashWord(word: string): number {
  let hash = HASH_SEED;
  for (let i = 0; i < word.length; i++) hash = hashStep(hash, word.charCodeAt(i));
  return hash;
}

/**
 * A lexeme of the vocabulary cache, shared by every word that stems to it, with the scratch state of
 * the toTsvector call that last met it (`stamp`): its positions in that document.
 */
interface Lexeme {
  text: string;
  /** `text` quoted for a literal. */
  quoted: string;
  stamp: number;
  positions: number[];
}

/**
 * The vocabulary: lexemes of words seen lately (a site's vocabulary repeats a lot), null for stop
 * words, in an open-addressing table keyed by eachWord's hash and checked against the word's
 * characters, so looking a word up makes no string (a Map keyed by each word's slice spent most of
 * toTsvector's time hashing new strings). Emptied when it holds 50,000 words.
 */
const VOCABULARY_SLOTS = 1 << 17;
const VOCABULARY_MAX = 50_000;
const slotHash = new Int32Array(VOCABULARY_SLOTS);
const slotWord: (string | undefined)[] = new Array(VOCABULARY_SLOTS).fill(undefined);
const slotLexeme: (Lexeme | null)[] = new Array(VOCABULARY_SLOTS).fill(null);
let vocabularySize = 0;
/** The same lexemes by their text, so words with one stem share one entry. */
const lexemes = new Map<string, Lexeme>();
/** Stamp of the latest toTsvector call. */
let lastStamp = 0;

/** Whether `word` equals `lower.slice(start, end)`. */
function sameWord(word: string, lower: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== lower.charCodeAt(start + i)) return false;
  return true;
}

/**
 * The cached lexeme entry of the word `lower.slice(start, end)` with eachWord's `hash` (null for stop
 * words and over-long words); stems and caches it on first sight.
 */
function lexemeAt(lower: string, start: number, end: number, hash: number): Lexeme | null {
  const mask = VOCABULARY_SLOTS - 1;
  let slot = hash & mask;
  for (let word = slotWord[slot]; word !== undefined; word = slotWord[slot]) {
    if (slotHash[slot] === hash && sameWord(word, lower, start, end)) return slotLexeme[slot];
    slot = (slot + 1) & mask;
  }
  const word = lower.slice(start, end);
  let text: string | null;
  if (word.length > MAX_WORD_CHARS || STOP_WORDS.has(word)) text = null;
  else if (HAS_DIGIT.test(word)) text = word;
  else text = stem(word);
  let entry: Lexeme | null = null;
  if (text !== null) {
    entry = lexemes.get(text) ?? { text, quoted: quote(text), stamp: 0, positions: [] };
    lexemes.set(text, entry);
  }
  if (vocabularySize >= VOCABULARY_MAX) {
    slotWord.fill(undefined);
    slotLexeme.fill(null);
    lexemes.clear();
    vocabularySize = 0;
    slot = hash & mask;
  }
  slotHash[slot] = hash;
  slotWord[slot] = word;
  slotLexeme[slot] = entry;
  vocabularySize++;
  return entry;
}

/**
 * The lexeme of one lower-cased word, or null for a stop word. Over-long words are null too.
 */
export function lexemeOf(word: string): string | null {
  return lexemeAt(word, 0, word.length, hashWord(word))?.text ?? null;
}

/** Quotes a lexeme for a tsvector or tsquery literal. */
function quote(lexeme: string): string {
  // Words hold letters, digits and marks only; the escapes keep the literal safe whatever changes.
  return lexeme.includes("'") || lexeme.includes('\\') ? `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'` : `'${lexeme}'`;
}

const WEIGHTS = ['A', 'B', 'C', 'D'] as const;
/** How a weight is written after a position (D, the default, is not written). */
const WEIGHT_SUFFIX = ['A', 'B', 'C', ''];

/** A field of a document and its weight (A highest). */
export interface WeightedText {
  text: string;
  weight: 'A' | 'B' | 'C' | 'D';
}

/**
 * The tsvector literal of a document's fields, positions running on from one field to the next
 * (what `setweight(to_tsvector(a), 'A') || setweight(to_tsvector(b), 'B') || ...` gives).
 * @returns e.g. `'postgr':1A,7C 'manual':2A` (empty string: no words)
 */
export function toTsvector(fields: readonly WeightedText[]): string {
  // One vocabulary lookup per word: its lexeme entry collects the positions of this call (marked by
  // its stamp; toTsvector never yields, so no other call shares them meanwhile). A position is kept
  // as `position * 4 + weight index`; positions only grow, so each lexeme's list is in order.
  const stamp = ++lastStamp;
  const found: Lexeme[] = [];
  let position = 0;
  for (const { text, weight } of fields) {
    const w = WEIGHTS.indexOf(weight);
    eachWord(text, (lower, start, end, hash) => {
      position++;
      const lexeme = lexemeAt(lower, start, end, hash);
      if (lexeme === null) return;
      if (lexeme.stamp !== stamp) {
        lexeme.stamp = stamp;
        lexeme.positions = [];
        found.push(lexeme);
      }
      lexeme.positions.push((position < MAX_POSITION ? position : MAX_POSITION) * 4 + w);
    });
  }
  let out = '';
  for (const lexeme of found) {
    const list = lexeme.positions;
    lexeme.positions = [];
    // PostgreSQL keeps at most 256 positions of a lexeme; these are the first 256 of the text.
    const n = Math.min(list.length, MAX_POSITIONS_PER_LEXEME);
    out += (out ? ' ' : '') + lexeme.quoted + ':';
    for (let i = 0; i < n; i++) out += (i ? ',' : '') + (list[i] >> 2) + WEIGHT_SUFFIX[list[i] & 3];
  }
  return out;
}

/** The tsvector literal of a search index row: title (weight A), description (B), content (C). */
export function pageTsvector(page: { title: string; description: string; content: string }): string {
  return toTsvector([{ text: page.title, weight: 'A' }, { text: page.description, weight: 'B' }, { text: page.content, weight: 'C' }]);
}

/** A phrase's tsquery: its lexemes in order, joined by `<N>` with N the position gap. */
function phraseQuery(text: string): string | null {
  let out = '';
  let last = 0;
  let position = 0;
  eachWord(text, (lower, start, end, hash) => {
    position++;
    const lexeme = lexemeAt(lower, start, end, hash)?.text ?? null;
    if (lexeme === null) return;
    out = last === 0 ? quote(lexeme) : `${out} <${position - last === 1 ? '-' : position - last}> ${quote(lexeme)}`;
    last = position;
  });
  if (!out) return null;
  return out.includes(' <') ? `(${out})` : out;
}

/**
 * The tsquery literal of a query in web search syntax (what `websearch_to_tsquery` accepts): words
 * must all match, `"quoted words"` as a phrase, `-word` or `-"phrase"` must not match, `or` between
 * two terms matches either. A term with several words (`full-text`, `3.14`) is a phrase.
 * @param mode `all` (the syntax above) or `any`: a page matching any one of the positive terms will
 *             do (negated terms still must not match)
 * @returns e.g. `'postgr' & ('full' <-> 'text') & !'mysql'`, or null when no term has a searchable word
 *          (only stop words or punctuation): such a query matches no page
 */
export function toTsquery(query: string, mode: 'all' | 'any' = 'all'): string | null {
  /** Clauses joined by AND; each clause is terms joined by OR. */
  const clauses: string[][] = [];
  let orPending = false;
  for (const m of query.matchAll(/(-?)"([^"]*)"?|(-?)([^\s"]+)/g)) {
    const negated = (m[1] ?? m[3]) === '-';
    const body = m[2] ?? m[4] ?? '';
    if (m[2] === undefined && !negated && body.toLowerCase() === 'or') {
      orPending = clauses.length > 0;
      continue;
    }
    const phrase = phraseQuery(body);
    if (phrase === null) continue;
    const term = negated ? `!${phrase}` : phrase;
    if (orPending) clauses[clauses.length - 1].push(term);
    else clauses.push([term]);
    orPending = false;
  }
  const terms = clauses.flat();
  const positive = terms.filter((t) => !t.startsWith('!'));
  if (positive.length === 0) {
    // Only negations: like websearch_to_tsquery, that would match every page without the words; a
    // search needs something to look for.
    return null;
  }
  const groups = mode === 'all' ? clauses : [positive, ...terms.filter((t) => t.startsWith('!')).map((t) => [t])];
  return groups.map((c) => (c.length > 1 ? `(${c.join(' | ')})` : c[0])).join(' & ');
}
