/**
 * WCXB benchmark: word F1 of Trawl's `onlyMainContent` markdown (reduced to text) against the
 * human-reviewed main text of the WCXB development split, per page type and overall, plus the
 * `with`/`without` snippet rates. Data: WCXB v1.0 by Murrough Foley, CC-BY-4.0, read from
 * `../shared/data/wcxb-dev` relative to the repository root (never copied into the repo).
 *
 *   bun bench/main-content/wcxb.ts [--every 5] [--offset 0] [--type forum] [--ids 0001,0002]
 *                                  [--worst 10] [--save out.json] [--compare old.json] [--dump dir] [--full]
 *                                  [--split tune|held] [--model]
 *
 * Scoring as the benchmark's README defines it: tokens are `\w+` of the lower-cased text (Unicode
 * letters, digits and `_`), counted as multisets; precision = overlap / predicted tokens, recall =
 * overlap / reference tokens; a page with an empty reference scores 1 for an empty prediction, else 0.
 * `--full` scores onlyMainContent: false (the whole cleaned page) instead. `--model` switches the
 * learned block model on (bench/main-content/block-model.ts, never in the service; trained by train.ts).
 * `with`: share of the must-contain snippets found in the text; `without`: share of the boilerplate
 * snippets absent from it (higher is better for both). A snippet is found when its token sequence
 * occurs in the text's token sequence. `--compare` prints the pages whose F1 moved most since a `--save`.
 * Against overfitting, a fixed 30% of the pages (by a seeded hash of the id, `heldOut`) is held out:
 * the `tune` and `held` columns give the mean F1 of each part; `--split` runs one part only.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { cleanDom } from '../../parsers/html/clean.ts';
import { nodesToMarkdown } from '../../formats/markdown/convert.ts';
import { markdownToText, mean, tokenF1, tokens } from './f1.ts';
import { SHIPPED_MODEL, training } from './block-model.ts';

const DATA = join(import.meta.dir, '../../../shared/data/wcxb-dev');
const TYPES = ['article', 'documentation', 'service', 'forum', 'collection', 'listing', 'product'];
/** rs-trafilatura's published dev-split figures (the benchmark's README). */
const TARGET: Record<string, number> = { ALL: 0.859, article: 0.932, documentation: 0.932, service: 0.844, forum: 0.808, collection: 0.716, listing: 0.707, product: 0.641 };

const { values: args } = parseArgs({
  options: {
    every: { type: 'string', default: '1' },
    offset: { type: 'string', default: '0' },
    type: { type: 'string' },
    ids: { type: 'string' },
    worst: { type: 'string', default: '0' },
    save: { type: 'string' },
    compare: { type: 'string' },
    dump: { type: 'string' },
    full: { type: 'boolean', default: false },
    split: { type: 'string' },
    model: { type: 'boolean', default: false },
  },
});
if (args.model) training.model = SHIPPED_MODEL;

interface Truth {
  url: string;
  _internal: { page_type: { primary: string } };
  ground_truth: { main_content: string | null; with?: string[]; without?: string[] };
}

interface Row {
  id: string;
  type: string;
  f1: number;
  recall: number;
  precision: number;
  withHit: number;
  withN: number;
  withoutHit: number;
  withoutN: number;
  empty: boolean;
  ms: number;
}

/** Whether `snippet`'s token sequence occurs in `text` (a token string with spaces both ends). */
function contains(text: string, snippet: string): boolean | undefined {
  const t = tokens(snippet);
  return t.length ? text.includes(` ${t.join(' ')} `) : undefined;
}

function scorePage(id: string): Row {
  const truth = JSON.parse(readFileSync(join(DATA, 'ground-truth', `${id}.json`), 'utf8')) as Truth;
  const html = gunzipSync(readFileSync(join(DATA, 'html', `${id}.html.gz`))).toString('utf8');
  const t0 = performance.now();
  const md = nodesToMarkdown(cleanDom(html, { url: truth.url, onlyMainContent: !args.full }));
  const ms = performance.now() - t0;
  if (args.dump) writeFileSync(join(args.dump, `${id}.md`), md);
  const text = markdownToText(md);
  const gold = truth.ground_truth.main_content ?? '';
  const s = tokenF1(text, gold);
  const joined = ` ${tokens(text).join(' ')} `;
  const count = (xs: string[] | undefined, want: boolean) => {
    let hit = 0;
    let n = 0;
    for (const x of xs ?? []) {
      const c = contains(joined, x);
      if (c === undefined) continue;
      n++;
      if (c === want) hit++;
    }
    return [hit, n];
  };
  const [withHit, withN] = count(truth.ground_truth.with, true);
  const [withoutHit, withoutN] = count(truth.ground_truth.without, false);
  const type = truth._internal.page_type.primary;
  return { id, type, f1: s.f1, recall: s.recall, precision: s.precision, withHit, withN, withoutHit, withoutN, empty: !text.trim(), ms };
}

/** Share of the pages held out from tuning, and the seed of the hash choosing them. */
const HELD_SHARE = 0.3;
const SEED = 23;

/** Whether page `id` is in the held-out part: FNV-1a of seed and id, mapped to [0, 1). */
function heldOut(id: string): boolean {
  let h = 0x811c9dc5 ^ SEED;
  for (const c of `wcxb:${id}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h / 2 ** 32 < HELD_SHARE;
}

let ids = readdirSync(join(DATA, 'ground-truth')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
if (args.ids) ids = args.ids.split(',');
const every = Number(args.every);
const offset = Number(args.offset);
ids = ids.filter((_, i) => i % every === offset % every);
if (args.type) {
  const meta = JSON.parse(readFileSync(join(DATA, 'metadata.json'), 'utf8')) as { files: Record<string, { page_type: string }> };
  ids = ids.filter((id) => meta.files[id]?.page_type === args.type);
}
if (args.split) ids = ids.filter((id) => heldOut(id) === (args.split === 'held'));
if (args.dump) mkdirSync(args.dump, { recursive: true });

const rows = ids.map(scorePage);
const fmt = (x: number) => x.toFixed(3);
const rate = (hit: number, n: number) => (n ? fmt(hit / n) : '  -  ');
console.log('type            pages  wordF1  target  recall  precision  with   without  empty  ms/page   tune   held');
for (const type of [...TYPES, 'ALL']) {
  const rs = rows.filter((r) => type === 'ALL' || r.type === type);
  if (!rs.length) continue;
  const part = (held: boolean) => {
    const xs = rs.filter((r) => heldOut(r.id) === held);
    return xs.length ? fmt(mean(xs.map((r) => r.f1))) : '  -  ';
  };
  const sum = (k: 'withHit' | 'withN' | 'withoutHit' | 'withoutN') => rs.reduce((n, r) => n + r[k], 0);
  console.log(
    `${type.padEnd(14)} ${String(rs.length).padStart(6)}  ${fmt(mean(rs.map((r) => r.f1)))}   ${fmt(TARGET[type] ?? 0)}   ${fmt(mean(rs.map((r) => r.recall)))}   ${fmt(mean(rs.map((r) => r.precision)))}    ${rate(sum('withHit'), sum('withN'))}  ${rate(sum('withoutHit'), sum('withoutN'))}   ${String(rs.filter((r) => r.empty).length).padStart(5)}  ${mean(rs.map((r) => r.ms)).toFixed(1).padStart(7)}  ${part(false)}  ${part(true)}`,
  );
}
const worst = Number(args.worst);
if (worst > 0) {
  console.log('\nworst pages:');
  for (const r of [...rows].sort((a, b) => a.f1 - b.f1).slice(0, worst)) console.log(`  ${r.id} ${r.type.padEnd(13)} F1=${fmt(r.f1)} R=${fmt(r.recall)} P=${fmt(r.precision)}`);
}
if (args.compare) {
  const old = new Map((JSON.parse(readFileSync(args.compare, 'utf8')) as Row[]).map((r) => [r.id, r]));
  const moved = rows.filter((r) => old.has(r.id)).map((r) => ({ r, d: r.f1 - old.get(r.id)!.f1 })).filter((x) => Math.abs(x.d) > 0.005);
  moved.sort((a, b) => a.d - b.d);
  console.log(`\nchanged pages vs ${args.compare}: ${moved.length} (better ${moved.filter((x) => x.d > 0).length}, worse ${moved.filter((x) => x.d < 0).length}), net ${fmt(moved.reduce((n, x) => n + x.d, 0) / rows.length)}`);
  for (const { r, d } of [...moved.slice(0, 12), ...moved.slice(-6)]) console.log(`  ${r.id} ${r.type.padEnd(13)} ${d > 0 ? '+' : ''}${fmt(d)} -> ${fmt(r.f1)}`);
}
if (args.save) writeFileSync(args.save, JSON.stringify(rows));
