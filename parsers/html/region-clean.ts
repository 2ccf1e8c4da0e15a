/**
 * Conditional cleaning of the chosen main-content region, after Readability's `_cleanConditionally`:
 * drops link lists, leftover widgets, forms, image clusters and near-empty blocks, and "Read more:
 * <link>" promo paragraphs, while never removing headings, code, data tables or the bulk of the text.
 */
import { detach as detachNode, elements, isAncestor, isTag, normalizeSpace, postOrder, textOf, type AnyNode, type Element, type ParentNode, type Text } from './dom.ts';
import { classWeight } from './scoring.ts';
import { linkDensity, type Stats, type StatsMap } from './stats.ts';

const CONDITIONAL_TAGS = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'header', 'footer', 'aside', 'figure', 'center', 'nav', 'menu']);

/**
 * Readability-style conditional cleaning of the chosen region (in place).
 * @param regionLen text length of the whole region (elements holding > 40% of it are kept)
 * @param scores paragraph scores from scoring.ts
 * @returns the removed elements in removal order (descendants before ancestors), each with its parent
 *   at removal
 */
export function cleanConditionally(region: ParentNode[], stats: StatsMap, scores: Map<Element, number>, regionLen: number): { el: Element; parent: ParentNode }[] {
  const removed: { el: Element; parent: ParentNode }[] = [];
  const detach = (el: Element) => {
    removed.push({ el, parent: el.parent! });
    detachNode(el);
  };
  for (const top of region) {
    const all = isTag(top as Element) ? [...postOrder(top), top as Element] : postOrder(top);
    for (const el of all) {
      if (!el.parent) continue;
      if (el.name === 'p' && isInlinePromo(el, stats)) {
        detach(el);
        continue;
      }
      if (!CONDITIONAL_TAGS.has(el.name)) continue;
      const s = stats.get(el);
      if (!s) continue;
      if (s.len > regionLen * 0.4) continue;
      if (shouldDrop(el, s, stats, scores, regionLen)) detach(el);
    }
  }
  return removed;
}

function shouldDrop(el: Element, s: Stats, stats: StatsMap, scores: Map<Element, number>, regionLen: number): boolean {
  const weight = classWeight(el);
  const ld = linkDensity(s);
  const core = innermost(el, stats);
  const isList = core.name === 'ul' || core.name === 'ol' || core.name === 'dl';
  const isDataTable = core.name === 'table' && s.len > 0 && !hasNestedTable(core);
  if (weight < 0 && (scores.get(el) ?? 0) + weight < 0 && s.pre === 0) return true;
  if (s.commas >= 10 && ld < 0.5) return false;
  if (s.pre > 0 && ld < 0.5) return false;
  if (isDataTable && ld < 0.5) return false;
  if (s.input > Math.floor(s.p / 3) && s.input > 0) return true;
  if (s.len === 0) return !hasMedia(el);
  if (s.len < 25 && ld > 0 && s.img === 0 && s.headings === 0 && !isList) return true;
  if (isList) {
    const items = Math.max(1, s.li);
    return ld > 0.85 && s.len / items < 80;
  }
  if (s.headings > 0 && ld < 0.5) return false;
  if (s.img > 1 && s.p / s.img < 0.5 && s.len < 200 && el.name !== 'figure') return true;
  if (weight < 25 && ld > 0.33 && s.len < 800 && !(ld < MAX_CARD_LINK_DENSITY && isGridItem(el, stats, regionLen))) return true;
  if (weight >= 25 && ld > 0.5) return true;
  return false;
}

/** Item cards (a linked name, then price or details) are at most this link-dense; menus are more. */
const MAX_CARD_LINK_DENSITY = 0.75;
/** Least number of like siblings, and least share of the region text they hold together, of a grid. */
const MIN_GRID_ITEMS = 3;
const MIN_GRID_SHARE = 0.2;

/**
 * Whether `el` is one item of a grid (a product or article listing): at least three siblings of the
 * same tag and class that together hold a good share of the region's text.
 */
function isGridItem(el: Element, stats: StatsMap, regionLen: number): boolean {
  const parent = el.parent;
  if (!parent) return false;
  const key = el.attribs.class ?? '';
  let n = 0;
  let len = 0;
  for (const c of parent.children) {
    if (!isTag(c) || c.name !== el.name || (c.attribs.class ?? '') !== key) continue;
    n++;
    len += stats.get(c)?.len ?? 0;
  }
  return n >= MIN_GRID_ITEMS && len >= regionLen * MIN_GRID_SHARE;
}

const PROMO_LEAD = /^(read more|related|see also|also read|read also|more|read|watch|listen|recommended|don't miss|do not miss|must read|further reading|more on this( story)?)\s*[:|–—-]?$/i;

/** A paragraph that only points to another story: "Read more: <link>", "Related: <link>". */
function isInlinePromo(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.len === 0 || s.len > 200 || s.link / s.len < 0.5) return false;
  let lead = '';
  for (const c of el.children) {
    if (isTag(c) && c.name === 'a') break;
    lead += textOf(c);
  }
  return PROMO_LEAD.test(normalizeSpace(lead));
}

/** Follows single-child wrappers without own text (`div > div > ul` -> `ul`). */
function innermost(el: Element, stats: StatsMap): Element {
  let cur = el;
  for (;;) {
    const kids = cur.children.filter(isTag);
    if (kids.length !== 1 || (stats.get(cur)?.own ?? 0) > 0) return cur;
    cur = kids[0];
  }
}

function hasNestedTable(el: Element): boolean {
  for (const d of elements(el)) if (d.name === 'table') return true;
  return false;
}

function hasMedia(el: Element): boolean {
  for (const d of elements(el)) if (d.name === 'img' || d.name === 'video' || d.name === 'picture' || d.name === 'hr' || d.name === 'math') return true;
  return false;
}

const ALT_WORD = /[\p{L}\p{N}]+/gu;
/** Levels above an image searched for the text of its card or figure. */
const ALT_CONTEXT_LEVELS = 4;

/** Lower-case words of the text nodes under `node`, each node on its own (adjacent blocks do not fuse). */
function wordsUnder(node: ParentNode): Set<string> {
  const out = new Set<string>();
  const stack: AnyNode[] = [...node.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') for (const w of (n as Text).data.toLowerCase().match(ALT_WORD) ?? []) out.add(w);
    else if (isTag(n)) stack.push(...n.children);
  }
  return out;
}

/**
 * Blanks the alt text of images that only repeats text shown next to them: a product or teaser card
 * whose image is labelled with the card's own title, a figure whose caption is its alt, the second
 * copy of a responsive image. The image stays; its words would only be said twice. The context is the
 * nearest ancestor (up to four levels) that holds text.
 */
export function blankRedundantAlts(nodes: ParentNode[]): void {
  for (const top of nodes) {
    const imgs = isTag(top as Element) && (top as Element).name === 'img' ? [top as Element] : [...elements(top)].filter((e) => e.name === 'img');
    const seen = new Map<unknown, Set<string>>();
    // Only alt attributes change below, so a context's text and words are read once (a gallery's
    // images share one context).
    const texts = new Map<ParentNode, string>();
    const textAt = (n: ParentNode): string => {
      let t = texts.get(n);
      if (t === undefined) texts.set(n, (t = textOf(n as AnyNode)));
      return t;
    };
    const words = new Map<ParentNode, Set<string>>();
    for (const img of imgs) {
      const alt = normalizeSpace(img.attribs.alt ?? '').toLowerCase();
      if (!alt) continue;
      const altWords = alt.match(ALT_WORD);
      if (!altWords) continue;
      let ctx: ParentNode | null = img.parent;
      let text = '';
      for (let i = 0; ctx && i < ALT_CONTEXT_LEVELS; i++) {
        text = textAt(ctx);
        if (text.trim()) break;
        if (ctx === top) break;
        ctx = ctx.parent;
      }
      const key = ctx ?? img.parent;
      const dup = seen.get(key);
      if (dup?.has(alt)) {
        img.attribs.alt = '';
        continue;
      }
      if (!dup) seen.set(key, new Set([alt]));
      else dup.add(alt);
      if (!text.trim()) continue;
      let have = words.get(ctx!);
      if (!have) words.set(ctx!, (have = wordsUnder(ctx!)));
      if (altWords.every((w) => have.has(w))) img.attribs.alt = '';
    }
  }
}

/** Words per shingle when comparing a quote with the text before it. */
const QUOTE_SHINGLE = 5;
/** A quote whose shingles occur earlier to this share (0-1) repeats an earlier post. */
const REPEATED_QUOTE_SHARE = 0.8;
const QUOTE_WORD = /[\p{L}\p{N}]+/gu;

/**
 * Removes block quotes that repeat text said earlier in `nodes` (a forum reply quoting the post it
 * answers): at least 80% of the quote's 5-word shingles occur in the text before it. A quote of text
 * that appears nowhere before (an epigraph, a citation) stays. Pages without `blockquote` pay one walk.
 */
export function dropRepeatedQuotes(nodes: ParentNode[]): void {
  const quotes = nodes.flatMap((n) => (isTag(n as AnyNode) && (n as Element).name === 'blockquote' ? [n as Element] : [...elements(n)].filter((e) => e.name === 'blockquote')));
  if (!quotes.length) return;
  const seen = new Set<string>();
  const window: string[] = [];
  const remove: Element[] = [];
  // Text after the last quote is compared with nothing: the walk ends once that quote is judged.
  const lastQuote = quotes[quotes.length - 1];
  let done = false;
  // Walks the text in document order; a quote is judged against what came before it, then skipped.
  const visit = (node: AnyNode, inQuote: Element | undefined, quoteShingles: string[] | undefined): void => {
    if (done) return;
    if (node.type === 'text') {
      for (const w of ((node as Text).data.toLowerCase().match(QUOTE_WORD) ?? [])) {
        window.push(w);
        if (window.length > QUOTE_SHINGLE) window.shift();
        if (window.length === QUOTE_SHINGLE) {
          const key = window.join(' ');
          if (quoteShingles) quoteShingles.push(key);
          else seen.add(key);
        }
      }
      return;
    }
    if (!isTag(node)) return;
    if (node.name === 'blockquote' && !inQuote) {
      const shingles: string[] = [];
      window.length = 0;
      for (const c of node.children) visit(c, node, shingles);
      window.length = 0;
      const hits = shingles.filter((s) => seen.has(s)).length;
      if (shingles.length && hits >= shingles.length * REPEATED_QUOTE_SHARE) remove.push(node);
      else for (const s of shingles) seen.add(s);
      done = node === lastQuote || isAncestor(node, lastQuote);
      return;
    }
    for (const c of node.children) visit(c, inQuote, quoteShingles);
  };
  for (const n of nodes) visit(n as AnyNode, undefined, undefined);
  for (const q of remove) detachNode(q);
}

/** Sibling copies shorter than this (characters) are kept: short labels repeat for good reasons. */
const MIN_COPY_CHARS = 80;

/**
 * Removes element copies: a child whose text (white space collapsed) equals that of an earlier sibling
 * element and holds at least MIN_COPY_CHARS characters. Page builders render one section per screen
 * size (desktop, tablet, phone) and hide all but one with CSS; the text would be said three times.
 * Children are cleaned before their parent compares them. Only siblings whose collapsed texts have
 * the same length are compared (their texts are read then); the lengths come from one scan of each
 * text node, so a page costs one walk, not one text read per element and level.
 */
export function dropSiblingCopies(node: AnyNode): void {
  copyFreeMeasure(node);
}

/**
 * The collapsed text of a node (every white-space run one space, untrimmed, as `normalizeSpace`
 * before its trim) packed in one number: length * 4, + 2 when it opens with a space, + 1 when it
 * ends with one (0: empty).
 */
type Measure = number;

function joinMeasures(a: Measure, b: Measure): Measure {
  if (a === 0) return b;
  if (b === 0) return a;
  const len = (a - (a & 3)) / 4 + (b - (b & 3)) / 4 - (a & 1 && b & 2 ? 1 : 0);
  return len * 4 + (a & 2) + (b & 1);
}

/** Length of the collapsed text once trimmed (`normalizeSpace(text).length`). */
function trimmedLength(m: Measure): number {
  const len = (m - (m & 3)) / 4;
  if (len === 1 && m & 2) return 0;
  return len - (m & 2 ? 1 : 0) - (m & 1);
}

/** Whether a UTF-16 code unit is white space for `\s` and `trim` (WhiteSpace and LineTerminator). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function measureText(s: string): Measure {
  const n = s.length;
  if (!n) return 0;
  let len = 0;
  let inRun = false;
  for (let i = 0; i < n; i++) {
    if (isSpace(s.charCodeAt(i))) {
      if (!inRun) len++;
      inRun = true;
    } else {
      len++;
      inRun = false;
    }
  }
  return len * 4 + (isSpace(s.charCodeAt(0)) ? 2 : 0) + (inRun ? 1 : 0);
}

/** Text of a node as dropSiblingCopies reads it: text nodes, inside elements (and the document) only. */
function copyText(node: AnyNode): string {
  if (node.type === 'text') return (node as Text).data;
  if (!isTag(node) && node.type !== 'root') return '';
  let text = '';
  for (const c of (node as ParentNode).children) text += copyText(c);
  return text;
}

/** Removes the sibling copies under `node` (its children first) and measures what is left. */
function copyFreeMeasure(node: AnyNode): Measure {
  if (node.type === 'text') return measureText((node as Text).data);
  if (!isTag(node) && node.type !== 'root') return 0;
  const kids = (node as ParentNode).children;
  const measures: Measure[] = new Array(kids.length);
  let lengths: Map<number, number> | undefined;
  let candidates = 0;
  for (let i = 0; i < kids.length; i++) {
    const m = copyFreeMeasure(kids[i]);
    measures[i] = m;
    if (!isTag(kids[i])) continue;
    const len = trimmedLength(m);
    if (len < MIN_COPY_CHARS) continue;
    lengths ??= new Map();
    lengths.set(len, (lengths.get(len) ?? 0) + 1);
    candidates++;
  }
  let copies: AnyNode[] | undefined;
  if (lengths && candidates > lengths.size) {
    const seen = new Set<string>();
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (!isTag(c)) continue;
      const len = trimmedLength(measures[i]);
      if (len < MIN_COPY_CHARS || lengths.get(len)! < 2) continue;
      const key = normalizeSpace(copyText(c));
      if (seen.has(key)) {
        (copies ??= []).push(c);
        measures[i] = 0;
      } else seen.add(key);
    }
  }
  let total: Measure = 0;
  for (let i = 0; i < measures.length; i++) total = joinMeasures(total, measures[i]);
  if (copies) for (const c of copies) detachNode(c);
  return total;
}
