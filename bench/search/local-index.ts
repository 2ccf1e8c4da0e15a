/**
 * Local search index latency: fills a fresh database with generated pages (default 10,000) through
 * the same upsert the scrape worker uses, then times queries through the `local` provider and reports
 * p50 / p95 / max per query class. Text is generated like English: a Zipf-distributed vocabulary whose
 * most frequent ranks are English stop words (dropped by the `english` text search configuration, as
 * in real pages) followed by pseudo-words; query words are drawn from the same distribution minus the
 * stop words, so common and rare words (many and few matching pages) are both exercised. Nothing is
 * downloaded.
 *
 *   bun bench/search/local-index.ts [pglite|postgres] [pages] [queries]
 *
 * postgres uses the local test server (postgres://postgres@127.0.0.1:5432, a throwaway database).
 */
import { openTestDatabase } from '../../test/helpers/db.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import type { DatabaseKind } from '../../core/db/client.ts';
import type { SearchQuery } from '../../core/plugin.ts';
import { upsertPage, type IndexedPage } from '../../core/search/local-index.ts';
import local from '../../plugins/search/local.ts';

const kind = (process.argv[2] ?? 'pglite') as DatabaseKind;
const PAGES = Number(process.argv[3] ?? 10_000);
const QUERIES = Number(process.argv[4] ?? 200);

/** Deterministic PRNG (mulberry32) so runs are comparable. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(42);
const SYLLABLES = ['ta', 'ri', 'mo', 'sel', 'vak', 'dun', 'pe', 'lor', 'qui', 'zan', 'fe', 'bro', 'tis', 'gal', 'nu', 'ker', 'sha', 'vin', 'op', 'ul'];
const STOP_WORDS = ('the of and to in is you that it he was for on are as with his they at be this have from or had by but not what ' +
  'all were we when your can there an each which she do how their if will up other about out many then them these so some her would ' +
  'him into has more two could my than been who its now did down only over such our through most very after any both few own same ' +
  'too just should while where why here once off again further against between during before above below under until because').split(' ');
const VOCAB = [
  ...STOP_WORDS,
  ...Array.from({ length: 20_000 }, (_, i) => {
    let w = '';
    for (let n = i + 7; w.length < 4 || n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
    return w;
  }),
];
// Zipf: P(rank r) ~ 1/r; sample by inverting the cumulative harmonic numbers.
const CUM: number[] = [];
VOCAB.reduce((acc, _, i) => (CUM.push(acc + 1 / (i + 1)), acc + 1 / (i + 1)), 0);
/** A word of the text (stop words included). */
function textWord(): string {
  const x = rand() * CUM[CUM.length - 1];
  let lo = 0;
  let hi = CUM.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUM[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo];
}
/** A query word: drawn like text words, stop words skipped (people search for content words). */
function word(): string {
  for (;;) {
    const w = textWord();
    if (!STOP_WORDS.includes(w)) return w;
  }
}
const text = (n: number) => Array.from({ length: n }, textWord).join(' ');
const words = (n: number) => Array.from({ length: n }, word).join(' ');

/** The one team every bench page belongs to (the index is per team). */
const BENCH_TEAM = 'bench';

function page(i: number): IndexedPage {
  const paragraphs = Array.from({ length: 3 + Math.floor(rand() * 6) }, () => `${text(40 + Math.floor(rand() * 80))}.`);
  const host = `site${i % 200}.example`;
  return {
    teamId: BENCH_TEAM,
    url: `https://${host}/page/${i}`,
    host,
    path: `/page/${i}`,
    title: text(6),
    description: text(20),
    content: paragraphs.join('\n\n'),
    kind: i % 10 === 0 ? 'news' : 'web',
    filetype: i % 50 === 0 ? 'pdf' : 'html',
    language: 'en',
    adult: false,
    publishedAt: i % 10 === 0 ? new Date(Date.now() - (i % 400) * 86_400_000) : undefined,
  };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const t = await openTestDatabase(kind);
try {
  let started = performance.now();
  let bytes = 0;
  for (let i = 0; i < PAGES; i += 500) {
    await t.db.transaction(async (tx) => {
      for (let j = i; j < Math.min(PAGES, i + 500); j++) {
        const p = page(j);
        bytes += p.content.length;
        await upsertPage(tx, p);
      }
    });
  }
  const fillMs = performance.now() - started;
  console.log(`${kind}: indexed ${PAGES} pages (${(bytes / 1024 / 1024).toFixed(1)} MiB of text) in ${(fillMs / 1000).toFixed(1)} s (${(fillMs / PAGES).toFixed(2)} ms/page)`);

  const ctx = { config: loadConfig({}), log: silentLogger, signal: new AbortController().signal, deadline: Date.now() + 3_600_000, blobs: {} as never, db: t.db, indexTeams: [BENCH_TEAM] };
  const classes: [string, () => Partial<SearchQuery>][] = [
    ['1 word', () => ({ query: word() })],
    ['2 words', () => ({ query: words(2) })],
    ['3 words', () => ({ query: words(3) })],
    ['2 words, no highlights', () => ({ query: words(2), highlights: false })],
    ['2 words + site:', () => ({ query: `${words(2)} site:site${Math.floor(rand() * 200)}.example` })],
    ['1 word, news, qdr:m', () => ({ query: word(), source: 'news', tbs: 'qdr:m' })],
  ];
  for (let i = 0; i < 20; i++) await local.search({ query: word(), source: 'web', limit: 10, timeoutMs: 60_000 }, ctx); // warm up
  for (const [name, make] of classes) {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < QUERIES; i++) {
      const q: SearchQuery = { query: '', source: 'web', limit: 10, timeoutMs: 60_000, ...make() };
      started = performance.now();
      hits += (await local.search(q, ctx)).length;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${kind} ${name.padEnd(24)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms  p95 ${pct(times, 95).toFixed(1).padStart(6)} ms  max ${times[times.length - 1].toFixed(1).padStart(6)} ms  (avg ${(hits / QUERIES).toFixed(1)} hits)`,
    );
  }
} finally {
  await t.close();
}
