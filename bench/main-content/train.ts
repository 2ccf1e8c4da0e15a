/**
 * Trains the block model of bench/main-content/block-model.ts on the WCXB development split's tuning part
 * (never the held-out part) and writes bench/main-content/block-model-weights.json.
 *
 *   bun bench/main-content/train.ts [--trees 50] [--depth 4] [--rate 0.1] [--near 60] [--far 60]
 *                                   [--every 2] [--dry]   (the defaults made the shipped weights)
 *
 * 1. Every tuning page goes through the real clean step with the model switched off; the block
 *    model's tap (`training.observe`) records each text block's features, the rules' region and the
 *    tokens of the rules' markdown.
 * 2. Labels: the share of a block's token 3-grams found in the page's ground-truth text (1- and 2-token
 *    blocks: whether their token sequence occurs in it), used as a soft label. Each page weighs the
 *    same in total (the benchmark averages F1 per page), split over its blocks by their tokens.
 * 3. The class-word vocabulary: the words found on pages of the most distinct domains (domains only
 *    count sites; they are no feature).
 * 4. Gradient-boosted regression trees on the log-loss (histogram splits, 32 bins per feature).
 *    The drop/add thresholds are chosen on out-of-fold predictions (3 folds grouped by domain): each
 *    threshold pair is scored by the mean word F1 of the simulated output (the rules' markdown tokens
 *    minus the dropped blocks' tokens plus the added blocks' tokens); then the trees are trained on all
 *    tuning pages.
 * Data: WCXB v1.0 by Murrough Foley, CC-BY-4.0, read from ../shared/data/wcxb-dev (never copied here).
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { cleanDom } from '../../parsers/html/clean.ts';
import { nodesToMarkdown } from '../../formats/markdown/convert.ts';
import { addable, FEATURES, MAX_DROP_SHARE, predict, regionFeatures, training, type BlockModelWeights, type BlockPage, type Vocabulary } from './block-model.ts';
import { markdownToText, tokens } from './f1.ts';

const DATA = join(import.meta.dir, '../../../shared/data/wcxb-dev');
const OUT = join(import.meta.dir, 'block-model-weights.json');

const { values: args } = parseArgs({
  options: {
    trees: { type: 'string', default: '50' },
    depth: { type: 'string', default: '4' },
    rate: { type: 'string', default: '0.1' },
    near: { type: 'string', default: '60' },
    far: { type: 'string', default: '60' },
    every: { type: 'string', default: '2' },
    dry: { type: 'boolean', default: false },
  },
});

/** The held-out test of wcxb.ts (same seed and share): those pages are never read here. */
function heldOut(id: string): boolean {
  let h = 0x811c9dc5 ^ 23;
  for (const c of `wcxb:${id}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h / 2 ** 32 < 0.3;
}

interface PageData {
  id: string;
  domain: string;
  /** Base feature vectors (FEATURES) per block. */
  x: Float64Array[];
  near: number[][];
  far: number[][];
  /** Soft labels per block (0..1) and per-block tokens. */
  y: number[];
  tok: string[][];
  inRegion: number[];
  canAdd: Uint8Array;
  leaf: boolean[];
  own: number[];
  /** Token counts of the rules' markdown text and of the ground truth. */
  pred: Map<string, number>;
  gold: Map<string, number>;
}

const counts = (xs: string[]) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

function label(blockTok: string[], grams: Set<string>, joined: string): number {
  if (!blockTok.length) return 0;
  if (blockTok.length < 3) return joined.includes(` ${blockTok.join(' ')} `) ? 1 : 0;
  let hit = 0;
  for (let i = 0; i + 3 <= blockTok.length; i++) if (grams.has(`${blockTok[i]} ${blockTok[i + 1]} ${blockTok[i + 2]}`)) hit++;
  return hit / (blockTok.length - 2);
}

// ---- 1. collect ----
const meta = JSON.parse(readFileSync(join(DATA, 'metadata.json'), 'utf8')) as { files: Record<string, { domain?: string }> };
const every = Number(args.every);
const ids = readdirSync(join(DATA, 'ground-truth')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort()
  .filter((id) => !heldOut(id)).filter((_, i) => i % every === 0);
const nearV: Vocabulary = { index: new Map(), grow: true };
const farV: Vocabulary = { index: new Map(), grow: true };
training.vocab = [nearV, farV];
const pages: PageData[] = [];
const t0 = performance.now();
for (const id of ids) {
  const truth = JSON.parse(readFileSync(join(DATA, 'ground-truth', `${id}.json`), 'utf8'));
  const html = gunzipSync(readFileSync(join(DATA, 'html', `${id}.html.gz`))).toString('utf8');
  let seen: { page: BlockPage; x: Float64Array[]; inRegion: number[]; canAdd: Uint8Array } | undefined;
  training.observe = (page, region) => {
    const x = regionFeatures(page, region, 0, 0);
    const inRegion = x.map((v) => v[FEATURES.indexOf('inRegion')]);
    seen = { page, x, inRegion, canAdd: addable(page, region, inRegion) };
  };
  const md = nodesToMarkdown(cleanDom(html, { url: truth.url, onlyMainContent: true }));
  if (!seen) continue; // the rules fell back to the safe cleanup: the model is not applied there
  const goldText: string = truth.ground_truth.main_content ?? '';
  const goldTok = tokens(goldText);
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= goldTok.length; i++) grams.add(`${goldTok[i]} ${goldTok[i + 1]} ${goldTok[i + 2]}`);
  const joined = ` ${goldTok.join(' ')} `;
  const tok = seen.page.blocks.map((b) => tokens(b.text));
  pages.push({
    id,
    domain: meta.files[id]?.domain ?? truth.url ?? id,
    x: seen.x,
    near: seen.page.blocks.map((b) => b.near),
    far: seen.page.blocks.map((b) => [...new Set(b.far)]),
    y: tok.map((t) => label(t, grams, joined)),
    tok,
    inRegion: seen.inRegion,
    canAdd: seen.canAdd,
    leaf: seen.page.blocks.map((b) => b.leaf),
    own: seen.page.blocks.map((b) => Math.expm1(b.f[0])),
    pred: counts(tokens(markdownToText(md))),
    gold: counts(goldTok),
  });
}
training.observe = undefined;
training.vocab = undefined;
console.log(`pages ${pages.length} of ${ids.length}, blocks ${pages.reduce((n, p) => n + p.x.length, 0)}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// ---- 3. vocabulary: words on the most domains ----
function topWords(v: Vocabulary, lists: (p: PageData) => number[][], n: number): { words: string[]; remap: Map<number, number> } {
  const byIdx = [...v.index.entries()].map(([w, i]) => [i, w] as const);
  const names = new Map(byIdx);
  const domains = new Map<number, Set<string>>();
  for (const p of pages) for (const l of lists(p)) for (const i of l) {
    let s = domains.get(i);
    if (!s) domains.set(i, (s = new Set()));
    s.add(p.domain);
  }
  const ranked = [...domains].filter(([, s]) => s.size >= 5).sort((a, b) => b[1].size - a[1].size || (names.get(a[0])! < names.get(b[0])! ? -1 : 1)).slice(0, n);
  return { words: ranked.map(([i]) => names.get(i)!), remap: new Map(ranked.map(([i], k) => [i, k])) };
}
const nearTop = topWords(nearV, (p) => p.near, Number(args.near));
const farTop = topWords(farV, (p) => p.far, Number(args.far));
const NF = FEATURES.length + nearTop.words.length + farTop.words.length;

// ---- rows ----
interface Rows { x: Float64Array[]; y: number[]; w: number[]; page: number[]; block: number[] }
const rows: Rows = { x: [], y: [], w: [], page: [], block: [] };
pages.forEach((p, pi) => {
  const totalTok = p.tok.reduce((n, t) => n + t.length, 0) || 1;
  for (let i = 0; i < p.x.length; i++) {
    if (!p.leaf[i] || !(p.inRegion[i] || p.canAdd[i])) continue; // only blocks the hook decides on
    const v = new Float64Array(NF);
    v.set(p.x[i]);
    for (const k of p.near[i]) { const j = nearTop.remap.get(k); if (j !== undefined) v[FEATURES.length + j] = 1; }
    for (const k of p.far[i]) { const j = farTop.remap.get(k); if (j !== undefined) v[FEATURES.length + nearTop.words.length + j] = 1; }
    rows.x.push(v);
    rows.y.push(p.y[i]);
    rows.w.push((100 * Math.max(1, p.tok[i].length)) / totalTok);
    rows.page.push(pi);
    rows.block.push(i);
  }
});
console.log(`rows ${rows.x.length}, features ${NF}`);

// ---- 4. gradient-boosted trees ----
const BINS = 32;
type Tree = BlockModelWeights['trees'][number];

/** Features from this index on are 0/1 class-word flags: their histograms are built from the rows set to 1. */
const SPARSE_FROM = FEATURES.length;

function binning(idx: number[]): { edges: Float64Array[]; bins: Uint8Array[]; ones: Int32Array[] } {
  const edges: Float64Array[] = [];
  const bins: Uint8Array[] = [];
  const ones: Int32Array[] = [];
  for (let f = SPARSE_FROM; f < NF; f++) {
    const l: number[] = [];
    idx.forEach((r, k) => rows.x[r][f] && l.push(k));
    ones.push(Int32Array.from(l));
  }
  for (let f = 0; f < NF; f++) {
    if (f >= SPARSE_FROM) {
      const on = ones[f - SPARSE_FROM];
      edges.push(Float64Array.from(on.length ? [0] : []));
      const b = new Uint8Array(idx.length);
      for (const k of on) b[k] = 1;
      bins.push(b);
      continue;
    }
    const vals = idx.map((r) => rows.x[r][f]).sort((a, b) => a - b);
    const uniq: number[] = [];
    for (let q = 1; q < BINS; q++) {
      const v = vals[Math.floor((q * vals.length) / BINS)];
      if (v !== undefined && (uniq.length === 0 || v > uniq[uniq.length - 1])) uniq.push(v);
    }
    // Edges are upper bounds: bin k holds x <= edges[k]; the last bin the rest.
    const e = Float64Array.from(uniq.length && uniq[uniq.length - 1] === vals[vals.length - 1] ? uniq.slice(0, -1) : uniq);
    edges.push(e);
    const b = new Uint8Array(idx.length);
    idx.forEach((r, k) => {
      const x = rows.x[r][f];
      let lo = 0;
      let hi = e.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (x <= e[mid]) hi = mid;
        else lo = mid + 1;
      }
      b[k] = lo;
    });
    bins.push(b);
  }
  return { edges, bins, ones };
}

function train(idx: number[], nTrees: number, depth: number, rate: number): BlockModelWeights {
  const { edges, bins, ones } = binning(idx);
  const n = idx.length;
  const y = idx.map((r) => rows.y[r]);
  const w = idx.map((r) => rows.w[r]);
  let sy = 0;
  let sw = 0;
  for (let k = 0; k < n; k++) { sy += w[k] * y[k]; sw += w[k]; }
  const prior = Math.min(0.99, Math.max(0.01, sy / sw));
  const base = Math.log(prior / (1 - prior));
  const z = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const node = new Int32Array(n);
  const trees: Tree[] = [];
  const lambda = 1;
  const minH = 0.5;
  const gh = new Float64Array(BINS * 2);
  for (let t = 0; t < nTrees; t++) {
    for (let k = 0; k < n; k++) {
      const p = 1 / (1 + Math.exp(-z[k]));
      g[k] = w[k] * (p - y[k]);
      h[k] = w[k] * Math.max(p * (1 - p), 1e-6);
    }
    const tree: Tree = { f: [-1], t: [0], l: [-1], r: [-1], v: [0] };
    node.fill(0);
    let frontier = [0];
    for (let d = 0; d < depth && frontier.length; d++) {
      // Sums per node, then the best split per node by one histogram pass per feature.
      const best = new Map<number, { gain: number; f: number; b: number }>();
      const G = new Map<number, number>();
      const H = new Map<number, number>();
      for (let k = 0; k < n; k++) {
        const nd = node[k];
        G.set(nd, (G.get(nd) ?? 0) + g[k]);
        H.set(nd, (H.get(nd) ?? 0) + h[k]);
      }
      const slot = new Map(frontier.map((nd, i) => [nd, i]));
      const hist = new Float64Array(frontier.length * BINS * 2);
      const rowSlot = new Int32Array(n);
      for (let k = 0; k < n; k++) rowSlot[k] = slot.get(node[k]) ?? -1;
      for (let f = 0; f < NF; f++) {
        hist.fill(0);
        const bf = bins[f];
        if (f >= SPARSE_FROM) {
          if (edges[f].length === 0) continue;
          // Bin 1 from the rows set to 1, bin 0 the rest of each node.
          for (const k of ones[f - SPARSE_FROM]) {
            const s = rowSlot[k];
            if (s < 0) continue;
            hist[(s * BINS + 1) * 2] += g[k];
            hist[(s * BINS + 1) * 2 + 1] += h[k];
          }
          for (const nd of frontier) {
            const s = slot.get(nd)!;
            hist[s * BINS * 2] = (G.get(nd) ?? 0) - hist[(s * BINS + 1) * 2];
            hist[s * BINS * 2 + 1] = (H.get(nd) ?? 0) - hist[(s * BINS + 1) * 2 + 1];
          }
        } else for (let k = 0; k < n; k++) {
          const s = rowSlot[k];
          if (s < 0) continue;
          const o = (s * BINS + bf[k]) * 2;
          hist[o] += g[k];
          hist[o + 1] += h[k];
        }
        for (const nd of frontier) {
          const s = slot.get(nd)!;
          const Gt = G.get(nd) ?? 0;
          const Ht = H.get(nd) ?? 0;
          let gl = 0;
          let hl = 0;
          gh.set(hist.subarray(s * BINS * 2, (s + 1) * BINS * 2));
          for (let b = 0; b < edges[f].length; b++) {
            gl += gh[b * 2];
            hl += gh[b * 2 + 1];
            const gr = Gt - gl;
            const hr = Ht - hl;
            if (hl < minH || hr < minH) continue;
            const gain = (gl * gl) / (hl + lambda) + (gr * gr) / (hr + lambda) - (Gt * Gt) / (Ht + lambda);
            const cur = best.get(nd);
            if (gain > 1e-6 && (!cur || gain > cur.gain)) best.set(nd, { gain, f, b });
          }
        }
      }
      const next: number[] = [];
      const childOf = new Map<number, [number, number, number, number]>();
      for (const nd of frontier) {
        const s = best.get(nd);
        if (!s) continue;
        const l = tree.f.length;
        tree.f.push(-1, -1);
        tree.t.push(0, 0);
        tree.l.push(-1, -1);
        tree.r.push(-1, -1);
        tree.v.push(0, 0);
        tree.f[nd] = s.f;
        tree.t[nd] = edges[s.f][s.b];
        tree.l[nd] = l;
        tree.r[nd] = l + 1;
        childOf.set(nd, [s.f, s.b, l, l + 1]);
        next.push(l, l + 1);
      }
      for (let k = 0; k < n; k++) {
        const c = childOf.get(node[k]);
        if (c) node[k] = bins[c[0]][k] <= c[1] ? c[2] : c[3];
      }
      frontier = next;
    }
    // Leaf values: Newton step.
    const G = new Map<number, number>();
    const H = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      G.set(node[k], (G.get(node[k]) ?? 0) + g[k]);
      H.set(node[k], (H.get(node[k]) ?? 0) + h[k]);
    }
    for (const [nd, gs] of G) tree.v[nd] = -gs / ((H.get(nd) ?? 0) + lambda);
    for (let k = 0; k < n; k++) z[k] += rate * tree.v[node[k]];
    trees.push(tree);
  }
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  for (const tr of trees) {
    tr.t = tr.t.map(round);
    tr.v = tr.v.map(round);
  }
  return { near: nearTop.words, far: farTop.words, base: round(base), rate, trees, drop: 0, add: 1 };
}

// ---- thresholds on out-of-fold predictions ----
const nTrees = Number(args.trees);
const depth = Number(args.depth);
const rate = Number(args.rate);
const fold = (pi: number) => {
  let hsh = 7;
  const dom = pages[pi]?.domain;
  if (dom === undefined) throw new Error(`no page ${pi} of ${pages.length}`);
  for (const c of dom) hsh = Math.imul(hsh ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return hsh % 3;
};
const oof = new Float64Array(rows.x.length);
for (let k = 0; k < 3; k++) {
  const trainIdx: number[] = [];
  const testIdx: number[] = [];
  rows.page.forEach((pi, r) => (fold(pi) === k ? testIdx : trainIdx).push(r));
  const m = train(trainIdx, nTrees, depth, rate);
  for (const r of testIdx) oof[r] = predict(rows.x[r], m);
  console.log(`fold ${k}: ${trainIdx.length} train rows, ${testIdx.length} test rows, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** Mean word F1 over the pages if blocks below `drop` leave the region and addable ones above `add` join. */
function simulate(prob: Float64Array, drop: number, add: number): number {
  const byPage = new Map<number, number[]>();
  rows.page.forEach((pi, r) => {
    let l = byPage.get(pi);
    if (!l) byPage.set(pi, (l = []));
    l.push(r);
  });
  let sum = 0;
  pages.forEach((p, pi) => {
    const pred = new Map(p.pred);
    const rs = byPage.get(pi) ?? [];
    let regionOwn = 0;
    let droppedOwn = 0;
    for (let i = 0; i < p.x.length; i++) if (p.inRegion[i]) regionOwn += p.own[i];
    const drops: number[] = [];
    const adds: number[] = [];
    for (const r of rs) {
      const i = rows.block[r];
      if (p.inRegion[i] && prob[r] < drop) { drops.push(i); droppedOwn += p.own[i]; }
      else if (p.canAdd[i] && prob[r] > add) adds.push(i);
    }
    if (droppedOwn <= regionOwn * MAX_DROP_SHARE) for (const i of drops) for (const t of p.tok[i]) {
      const c = pred.get(t) ?? 0;
      if (c > 0) pred.set(t, c - 1);
    }
    for (const i of adds) for (const t of p.tok[i]) pred.set(t, (pred.get(t) ?? 0) + 1);
    let tp = 0, np = 0, ng = 0;
    for (const c of pred.values()) np += c;
    for (const c of p.gold.values()) ng += c;
    for (const [k, c] of pred) tp += Math.min(c, p.gold.get(k) ?? 0);
    if (!np && !ng) sum += 1;
    else if (np && ng && tp) sum += (2 * tp) / (np + ng);
  });
  return sum / pages.length;
}

const base = simulate(oof, 0, 1);
let bestPair = { drop: 0, add: 1, f1: base };
for (const drop of [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]) {
  for (const add of [0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1]) {
    const f1 = simulate(oof, drop, add);
    if (f1 > bestPair.f1 + 1e-4) bestPair = { drop, add, f1 };
  }
}
console.log(`simulated tune F1 (out-of-fold): rules ${base.toFixed(4)}; drop ${bestPair.drop} add ${bestPair.add}: ${bestPair.f1.toFixed(4)}`);
for (const drop of [0.1, 0.2, 0.3]) console.log(`  drop ${drop} only: ${simulate(oof, drop, 1).toFixed(4)}`);
for (const add of [0.7, 0.8, 0.9]) console.log(`  add ${add} only: ${simulate(oof, 0, add).toFixed(4)}`);

// ---- final model on all tuning rows ----
const all = rows.x.map((_, r) => r);
const model = train(all, nTrees, depth, rate);
model.drop = bestPair.drop;
model.add = bestPair.add;
const json = JSON.stringify(model);
console.log(`model: ${model.trees.length} trees, ${(json.length / 1024).toFixed(1)} KiB, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
if (!args.dry) writeFileSync(OUT, `${json}\n`);
