/**
 * A small learned model over text blocks (in the spirit of boilerpipe, dragnet and rs-trafilatura), an
 * experiment next to the main-content extractor's rules (parsers/html/main-content.ts), reached only
 * through that extractor's `regionTap` (installed when this bench module is imported): it scores every text block of the
 * page (an element with inline text of its own: a paragraph, list item, heading, table cell ...) with
 * the probability that the block belongs to the main content, from structure and statistics only:
 * text length and link density (of the block, its parent and grandparent, its neighbours), tag, depth,
 * position, words of the class names and ids around it (a vocabulary learned from many sites), text
 * statistics (words, punctuation, digits, title case), repeated siblings, landmarks and class hints
 * around it, and whether the rule-based region holds it. Never a page, URL or domain.
 *
 * The model is a set of small regression trees (gradient boosting on the log-loss), trained offline by
 * bench/main-content/train.ts on the WCXB development split's tuning part; its trees and vocabulary are
 * block-model-weights.json. At run time: `collectBlocks` before the rules prune anything, then
 * `refineRegion` on the rules' region: blocks of the region the model rejects are dropped, text blocks
 * outside it the model accepts join it (in document order). Deterministic, linear in the page size.
 *
 * Not part of the service: on the held-out part of the split it gained +0.001 word F1 overall
 * (documentation -0.012, listing +0.027) for ~1.7x the clean step's time on pg-docs; see
 * bench/main-content/README.md, "Learned block model". It lives with the benches (train.ts trains it,
 * wcxb.ts --model scores with it), so the production code holds no training or model code.
 */
import { INLINE_TAGS, isTag, isText, type AnyNode, type Element, type ParentNode } from '../../parsers/html/dom.ts';
import { classTokens, hintsOf, landmarkOf } from '../../parsers/html/hints.ts';
import { boilerplateReason, descendable } from '../../parsers/html/prune.ts';
import { linkDensity, type StatsMap } from '../../parsers/html/stats.ts';
import { regionTap } from '../../parsers/html/main-content.ts';
import WEIGHTS from './block-model-weights.json' with { type: 'json' };

/** The shipped model: trees over the feature vector, the class-word vocabulary and the decision thresholds. */
export interface BlockModelWeights {
  /** Class/id words whose presence on the block or near ancestors (self, parent, grandparent) is a feature. */
  near: string[];
  /** Class/id words whose presence on any ancestor is a feature. */
  far: string[];
  /** Log-odds added to every block before the trees. */
  base: number;
  /** Learning rate the trees' leaf values are scaled by. */
  rate: number;
  /** Trees, each as flat arrays: feature index per node (-1 for a leaf), threshold, left and right child, leaf value. */
  trees: { f: number[]; t: number[]; l: number[]; r: number[]; v: number[] }[];
  /** A region block with a probability below this is dropped. */
  drop: number;
  /** A text block outside the region with a probability above this joins it. */
  add: number;
}

/** The shipped weights (block-model-weights.json). */
export const SHIPPED_MODEL = WEIGHTS as unknown as BlockModelWeights;
const MODEL = SHIPPED_MODEL;

/**
 * What the tap does: `observe` (train.ts, tests) sees every page's blocks and the rules' region (the
 * region is then returned unchanged), `vocab` replaces the shipped vocabulary, `model` switches the
 * model on (wcxb.ts --model). All empty: the tap passes the rules' region through untouched.
 */
export const training: {
  observe?: (page: BlockPage, region: AnyNode[]) => void;
  vocab?: [Vocabulary, Vocabulary];
  model?: BlockModelWeights;
} = {};

/** Whether the tap should collect blocks: training or a bench switched the model in. */
function blockModelActive(): boolean {
  return training.observe !== undefined || training.model !== undefined;
}

// Importing this module (bench and test code only) installs the tap on the extractor.
regionTap.current = {
  before: (root, stats) => (blockModelActive() ? collectBlocks(root, stats) : undefined),
  after: (page, region) => (page ? refineRegion(page as BlockPage, region) : region),
};

/** One text block: an element with inline text of its own. */
export interface Block {
  el: Element;
  /** The block's own inline text (text not inside nested blocks). */
  text: string;
  /** Static features (see FEATURES), filled by collectBlocks. */
  f: Float64Array;
  /** Whether the block holds no nested text block (only such blocks are dropped or added alone). */
  leaf: boolean;
  /** Vocabulary indices of class words near the block / on any ancestor. */
  near: number[];
  far: number[];
}

/** The blocks of a page, in document order, and the page measures the features are relative to. */
export interface BlockPage {
  blocks: Block[];
  root: ParentNode;
  /** Own text of all blocks, characters (non-white). */
  ownTotal: number;
}

/** Names of the feature vector's entries, in order (the vocabulary features follow). */
export const FEATURES = [
  'ownLen', 'ownLinkDensity', 'len', 'linkDensity', 'parentLinkDensity', 'parentLen', 'grandLinkDensity', 'depth',
  'pos', 'charPos', 'isP', 'isLi', 'isHeading', 'isCell', 'isDiv', 'isPre', 'isQuote', 'isDefinition',
  'words', 'avgWordLen', 'punctPerWord', 'endsSentence', 'digitShare', 'titleCaseShare', 'separators', 'copyright',
  'sameSiblings', 'parentSameSiblings', 'inChrome', 'inMainArticle', 'inHeaderFooter', 'ancJunk', 'ancChrome',
  'ancMeta', 'ancPositive', 'inForm', 'inList', 'inTable', 'safeDropped', 'pageLen', 'blockCount',
  'prevOwn', 'prevLinkDensity', 'nextOwn', 'nextLinkDensity',
  // Filled by regionFeatures once the rules chose their region:
  'inRegion', 'attached', 'regionShare', 'prevInRegion', 'nextInRegion', 'regionShareOfParent',
] as const;
const STATIC = FEATURES.indexOf('inRegion');
const F = Object.fromEntries(FEATURES.map((n, i) => [n, i])) as Record<(typeof FEATURES)[number], number>;

/** Length of the whole feature vector for a vocabulary of `near` + `far` words. */
export function featureCount(near: number, far: number): number {
  return FEATURES.length + near + far;
}

/** Pre-order index of every element collectBlocks walked, and the last index inside it (slots). */
const PRE = Symbol('trawl.blockPre');
const END = Symbol('trawl.blockEnd');
type Indexed = Element & { [PRE]?: number; [END]?: number };

const TAG_FLAG: Record<string, number> = {
  p: F.isP, li: F.isLi, h1: F.isHeading, h2: F.isHeading, h3: F.isHeading, h4: F.isHeading, h5: F.isHeading, h6: F.isHeading,
  td: F.isCell, th: F.isCell, div: F.isDiv, section: F.isDiv, pre: F.isPre, code: F.isPre, blockquote: F.isQuote, dd: F.isDefinition, dt: F.isDefinition,
};

interface Ctx {
  el: Element;
  depth: number;
  /** Vocabulary indices of the element's own class words. */
  own: number[];
  far: number[];
  flags: number;
  /** The block collecting this element's inline text. */
  parts: string[];
}

const IN_CHROME = 1, IN_MAIN = 2, IN_HF = 4, ANC_JUNK = 8, ANC_CHROME = 16, ANC_META = 32, ANC_POS = 64, IN_FORM = 128, IN_LIST = 256, IN_TABLE = 512;

/** Class words of an element's class and id (memoized per attribute value). */
const tokenMemo = new Map<string, string[]>();
function wordsOf(v: string | undefined): string[] {
  if (!v || v.length > 200) return [];
  let w = tokenMemo.get(v);
  if (!w) {
    if (tokenMemo.size > 20_000) tokenMemo.clear();
    w = [...new Set(v.split(/\s+/).flatMap((n) => (n.length < 80 ? classTokens(n) : [])))];
    tokenMemo.set(v, w);
  }
  return w;
}

/**
 * The vocabulary lookup: `index` maps a word to its feature index; with `grow` (training), unknown
 * words are added.
 */
export interface Vocabulary {
  index: Map<string, number>;
  grow: boolean;
}

const RUNTIME_VOCAB: Vocabulary = { index: new Map(MODEL.near.map((w, i) => [w, i])), grow: false };
const RUNTIME_FAR: Vocabulary = { index: new Map(MODEL.far.map((w, i) => [w, i])), grow: false };

function lookup(words: string[], vocab: Vocabulary): number[] {
  const out: number[] = [];
  for (const w of words) {
    let i = vocab.index.get(w);
    if (i === undefined && vocab.grow) vocab.index.set(w, (i = vocab.index.size));
    if (i !== undefined) out.push(i);
  }
  return out;
}

/**
 * Collects the text blocks under `root` (a basically cleaned body, before any pruning) with their
 * static features. `stats` are the element measures of the same tree (stats.ts).
 * @param vocab near/far class-word vocabularies (the shipped ones unless training)
 */
export function collectBlocks(root: ParentNode, stats: StatsMap, vocab: [Vocabulary, Vocabulary] = training.vocab ?? [RUNTIME_VOCAB, RUNTIME_FAR]): BlockPage {
  const blocks: Block[] = [];
  const [nearV, farV] = vocab;
  const safeDropped = safeDroppedSet(root, stats);
  const dropped: Element[] = [];
  let pre = 0;
  // Iterative pre-order walk; an entry [node, ctx, exit] closes an element (its END slot).
  const stack: [AnyNode, Ctx | undefined, boolean][] = [];
  const top: Ctx = { el: root as Element, depth: 0, own: [], far: [], flags: 0, parts: [] };
  for (let i = root.children.length - 1; i >= 0; i--) stack.push([root.children[i], top, false]);
  const byEl = new Map<Element, { block: Block; parts: string[]; ctx: Ctx; parent: Ctx }>();
  let droppedDepth = 0;
  while (stack.length) {
    const [node, ctx, exit] = stack.pop()!;
    if (exit) {
      (node as Indexed)[END] = pre - 1;
      if (safeDropped.has(node as Element)) droppedDepth--;
      continue;
    }
    if (isText(node)) {
      if (ctx && node.data.trim()) ctx.parts.push(node.data);
      continue;
    }
    if (!isTag(node) || !ctx) continue;
    const el = node as Element;
    (el as Indexed)[PRE] = pre++;
    if (safeDropped.has(el)) droppedDepth++;
    const inline = INLINE_TAGS.has(el.name);
    let next = ctx;
    if (!inline) {
      const words = [...wordsOf(el.attribs.class), ...wordsOf(el.attribs.id)];
      const own = lookup(words, nearV);
      const far = ctx.far.concat(lookup(words, farV));
      let flags = ctx.flags;
      const mark = landmarkOf(el);
      if (mark === 'chrome' || mark === 'junk') flags |= IN_CHROME;
      if (mark === 'main' || mark === 'article') flags |= IN_MAIN;
      if (el.name === 'header' || el.name === 'footer') flags |= IN_HF;
      const h = hintsOf(el);
      if (h.junk) flags |= ANC_JUNK;
      if (h.chrome) flags |= ANC_CHROME;
      if (h.meta) flags |= ANC_META;
      if (h.positive) flags |= ANC_POS;
      if (el.name === 'form') flags |= IN_FORM;
      if (el.name === 'ul' || el.name === 'ol' || el.name === 'dl') flags |= IN_LIST;
      if (el.name === 'table') flags |= IN_TABLE;
      next = { el, depth: ctx.depth + 1, own, far, flags, parts: [] };
      const s = stats.get(el);
      if (s && s.own > 0) {
        const block: Block = { el, text: '', f: new Float64Array(0), leaf: s.len === s.own, near: [], far };
        byEl.set(el, { block, parts: next.parts, ctx: next, parent: ctx });
        blocks.push(block);
        if (droppedDepth > 0) dropped.push(el);
      }
    }
    stack.push([el, next, true]);
    for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], next, false]);
  }
  const droppedSet = new Set(dropped);
  let ownTotal = 0;
  for (const b of blocks) ownTotal += stats.get(b.el)!.own;
  const pageLen = Math.log1p(ownTotal);
  const count = Math.log1p(blocks.length);
  const sig = new Map<ParentNode, Map<string, number>>();
  let charPos = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    const { parts, ctx, parent } = byEl.get(b.el)!;
    b.text = parts.join(' ');
    const s = stats.get(b.el)!;
    const f = (b.f = new Float64Array(STATIC));
    const ps = parent.el !== root ? stats.get(parent.el) : undefined;
    const gp = parent.el.parent && parent.el.parent !== root ? stats.get(parent.el.parent as Element) : undefined;
    f[F.ownLen] = Math.log1p(s.own);
    f[F.ownLinkDensity] = s.own ? Math.min(1, s.ownLink / s.own) : 0;
    f[F.len] = Math.log1p(s.len);
    f[F.linkDensity] = linkDensity(s);
    f[F.parentLinkDensity] = ps ? linkDensity(ps) : -1;
    f[F.parentLen] = ps ? Math.log1p(ps.len) : -1;
    f[F.grandLinkDensity] = gp ? linkDensity(gp) : -1;
    f[F.depth] = Math.min(ctx.depth, 60);
    f[F.pos] = blocks.length > 1 ? i / (blocks.length - 1) : 0;
    f[F.charPos] = ownTotal ? charPos / ownTotal : 0;
    charPos += s.own;
    const tag = TAG_FLAG[b.el.name];
    if (tag !== undefined) f[tag] = 1;
    textFeatures(b.text, f);
    f[F.sameSiblings] = Math.log1p(sameSiblings(b.el, sig));
    f[F.parentSameSiblings] = parent.el !== root ? Math.log1p(sameSiblings(parent.el, sig)) : 0;
    const fl = ctx.flags;
    f[F.inChrome] = fl & IN_CHROME ? 1 : 0;
    f[F.inMainArticle] = fl & IN_MAIN ? 1 : 0;
    f[F.inHeaderFooter] = fl & IN_HF ? 1 : 0;
    f[F.ancJunk] = fl & ANC_JUNK ? 1 : 0;
    f[F.ancChrome] = fl & ANC_CHROME ? 1 : 0;
    f[F.ancMeta] = fl & ANC_META ? 1 : 0;
    f[F.ancPositive] = fl & ANC_POS ? 1 : 0;
    f[F.inForm] = fl & IN_FORM ? 1 : 0;
    f[F.inList] = fl & IN_LIST ? 1 : 0;
    f[F.inTable] = fl & IN_TABLE ? 1 : 0;
    f[F.safeDropped] = droppedSet.has(b.el) ? 1 : 0;
    f[F.pageLen] = pageLen;
    f[F.blockCount] = count;
    // Near words: the block's own, its parent's and its grandparent's.
    const gpCtx = byEl.get(parent.el);
    b.near = [...new Set([...ctx.own, ...parent.own, ...(gpCtx ? gpCtx.parent.own : [])])];
  }
  for (let i = 0; i < blocks.length; i++) {
    const f = blocks[i].f;
    const prev = blocks[i - 1]?.f;
    const next = blocks[i + 1]?.f;
    f[F.prevOwn] = prev ? prev[F.ownLen] : -1;
    f[F.prevLinkDensity] = prev ? prev[F.ownLinkDensity] : -1;
    f[F.nextOwn] = next ? next[F.ownLen] : -1;
    f[F.nextLinkDensity] = next ? next[F.ownLinkDensity] : -1;
  }
  return { blocks, root, ownTotal };
}

/** Elements the safe cleanup would remove (outermost only), without removing anything. */
function safeDroppedSet(root: ParentNode, stats: StatsMap): Set<Element> {
  const out = new Set<Element>();
  let total = 0;
  for (const c of root.children) if (isTag(c)) total += stats.get(c)?.len ?? 0;
  const stack = [...root.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (boilerplateReason(n, stats, total, true)) out.add(n);
    else if (descendable(n)) stack.push(...n.children);
  }
  return out;
}

/** How many children of `el`'s parent share its tag and class (itself included). */
function sameSiblings(el: Element, memo: Map<ParentNode, Map<string, number>>): number {
  const parent = el.parent;
  if (!parent) return 1;
  let m = memo.get(parent);
  if (!m) {
    m = new Map();
    for (const c of parent.children) {
      if (!isTag(c)) continue;
      const k = `${c.name}.${c.attribs.class ?? ''}`;
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    memo.set(parent, m);
  }
  return m.get(`${el.name}.${el.attribs.class ?? ''}`) ?? 1;
}

/** Words, punctuation, digits and capitals of a block's own text. */
function textFeatures(text: string, f: Float64Array): void {
  let words = 0, wordChars = 0, punct = 0, digits = 0, chars = 0, title = 0, seps = 0, copy = 0;
  let inWord = false;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c <= 32 || c === 160;
    if (space) {
      inWord = false;
      continue;
    }
    chars++;
    last = c;
    if (!inWord) {
      words++;
      inWord = true;
      if (c >= 65 && c <= 90) title++;
    }
    if (c === 46 || c === 44 || c === 59 || c === 58 || c === 33 || c === 63) punct++;
    else if (c >= 48 && c <= 57) digits++;
    else if (c === 124 || c === 0x2022 || c === 0xb7 || c === 0xbb || c === 0x203a) seps++;
    else if (c === 0xa9) copy++;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127) wordChars++;
  }
  f[F.words] = Math.log1p(words);
  f[F.avgWordLen] = words ? wordChars / words : 0;
  f[F.punctPerWord] = words ? punct / words : 0;
  f[F.endsSentence] = last === 46 || last === 33 || last === 63 || last === 0x3002 ? 1 : 0;
  f[F.digitShare] = chars ? digits / chars : 0;
  f[F.titleCaseShare] = words ? title / words : 0;
  f[F.separators] = seps;
  f[F.copyright] = copy;
}

/**
 * The full feature vectors once the rules chose `region` (nodes of the same tree): whether each block
 * is still in the tree and inside the region, and the region's share of the page.
 * @returns one vector per block (featureCount(near, far) entries), in block order
 */
export function regionFeatures(page: BlockPage, region: readonly AnyNode[], nearSize = MODEL.near.length, farSize = MODEL.far.length): Float64Array[] {
  const { blocks, root } = page;
  const inRegion = new Uint8Array(blocks.length);
  const attached = new Uint8Array(blocks.length);
  const set = new Set<AnyNode>(region);
  let regionOwn = 0;
  const parentOwn = new Map<ParentNode, [number, number]>();
  for (let i = 0; i < blocks.length; i++) {
    let p: ParentNode | null = blocks[i].el;
    let inside = false;
    while (p && p !== root) {
      if (set.has(p as AnyNode)) inside = true;
      p = p.parent;
    }
    attached[i] = p === root ? 1 : 0;
    inRegion[i] = inside && p === root ? 1 : 0;
    const own = Math.expm1(blocks[i].f[F.ownLen]);
    if (inRegion[i]) regionOwn += own;
    const parent = blocks[i].el.parent;
    if (parent) {
      const e = parentOwn.get(parent) ?? [0, 0];
      e[0] += own;
      if (inRegion[i]) e[1] += own;
      parentOwn.set(parent, e);
    }
  }
  const share = page.ownTotal ? regionOwn / page.ownTotal : 0;
  const out: Float64Array[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    const v = new Float64Array(featureCount(nearSize, farSize));
    v.set(b.f);
    v[F.inRegion] = inRegion[i];
    v[F.attached] = attached[i];
    v[F.regionShare] = share;
    v[F.prevInRegion] = i > 0 ? inRegion[i - 1] : -1;
    v[F.nextInRegion] = i + 1 < blocks.length ? inRegion[i + 1] : -1;
    const po = b.el.parent ? parentOwn.get(b.el.parent) : undefined;
    v[F.regionShareOfParent] = po && po[0] ? po[1] / po[0] : 0;
    for (const w of b.near) if (w < nearSize) v[FEATURES.length + w] = 1;
    for (const w of b.far) if (w < farSize) v[FEATURES.length + nearSize + w] = 1;
    out.push(v);
  }
  return out;
}

/** Probability (0..1) that a block with feature vector `x` is main content, by the shipped trees. */
export function predict(x: Float64Array, model: BlockModelWeights = MODEL): number {
  let z = model.base;
  for (const t of model.trees) {
    let n = 0;
    while (t.f[n] >= 0) n = x[t.f[n]] <= t.t[n] ? t.l[n] : t.r[n];
    z += model.rate * t.v[n];
  }
  return 1 / (1 + Math.exp(-z));
}

/**
 * Which blocks may join the region: leaf blocks outside it, not inside the original extent of a region
 * node (blocks the region's own cleaning removed stay removed: its markup is not re-threaded).
 */
export function addable(page: BlockPage, region: readonly AnyNode[], inRegion: ArrayLike<number>): Uint8Array {
  const ranges = region.filter(isTag).map((r) => [(r as Indexed)[PRE] ?? -1, (r as Indexed)[END] ?? -2]);
  const out = new Uint8Array(page.blocks.length);
  for (let i = 0; i < page.blocks.length; i++) {
    const b = page.blocks[i];
    if (!b.leaf || inRegion[i]) continue;
    const pre = (b.el as Indexed)[PRE]!;
    if (!ranges.some(([s, e]) => pre >= s && pre <= e)) out[i] = 1;
  }
  return out;
}

/** Most of the region's own text the model may drop; beyond it the rules' region is kept whole. */
export const MAX_DROP_SHARE = 0.7;

/**
 * The hook of main-content.ts: drops the leaf blocks of `region` the model rejects (probability below
 * `drop`) and adds the leaf text blocks outside it that it accepts (above `add`), in document order.
 * Detaches dropped blocks from the tree. When the model would drop most of the region, nothing is dropped.
 * @returns the nodes to serialize (the region's nodes and the added blocks, in document order)
 */
export function refineRegion(page: BlockPage, region: AnyNode[]): AnyNode[] {
  if (training.observe) {
    training.observe(page, region);
    return region;
  }
  const model = training.model ?? MODEL;
  if (!model.trees.length || !page.blocks.length) return region;
  const xs = regionFeatures(page, region, model.near.length, model.far.length);
  const inRegion = xs.map((x) => x[F.inRegion]);
  const canAdd = addable(page, region, inRegion);
  const added: Element[] = [];
  const dropped: Element[] = [];
  let regionOwn = 0;
  let droppedOwn = 0;
  for (let i = 0; i < page.blocks.length; i++) {
    const b = page.blocks[i];
    const own = Math.expm1(b.f[F.ownLen]);
    if (inRegion[i]) regionOwn += own;
    if (!b.leaf || !(inRegion[i] || canAdd[i])) continue;
    const p = predict(xs[i], model);
    if (inRegion[i] && p < model.drop) {
      dropped.push(b.el);
      droppedOwn += own;
    } else if (canAdd[i] && p > model.add) added.push(b.el);
  }
  if (droppedOwn <= regionOwn * MAX_DROP_SHARE) for (const el of dropped) detachEl(el);
  const kept = region.filter((n) => n.parent);
  if (!added.length) return kept;
  const key = (n: AnyNode) => (isTag(n) ? ((n as Indexed)[PRE] ?? 0) : 0);
  return [...kept, ...added].map((n, i) => [n, key(n), i] as const).sort((a, b) => a[1] - b[1] || a[2] - b[2]).map((e) => e[0]);
}

function detachEl(el: Element): void {
  const parent = el.parent;
  if (!parent) return;
  const i = parent.children.indexOf(el);
  if (i >= 0) parent.children.splice(i, 1);
  if (el.prev) el.prev.next = el.next;
  if (el.next) el.next.prev = el.prev;
  el.parent = el.prev = el.next = null;
}
