/**
 * Text measures per element, computed bottom-up in one pass: how much text an element holds, how much
 * of it sits inside links, its own inline text (text not inside nested blocks, i.e. what a reader sees
 * as one paragraph) and counts of paragraphs, images, list items, form controls and commas. Lengths
 * count non-whitespace characters so indentation and markup layout do not matter.
 */
import { INLINE_TAGS, isSpaceCode, isTag, isText, postOrder, type AnyNode, type Element, type ParentNode } from './dom.ts';
import { hintsOf } from './hints.ts';

export interface Stats {
  /** Non-whitespace characters of all text inside. */
  len: number;
  /** Non-whitespace characters inside `<a>` elements. */
  link: number;
  /** Own inline text (not inside nested block elements), characters. */
  own: number;
  /** Own inline text inside links, characters. */
  ownLink: number;
  /** Commas (Latin and CJK) in all text inside. */
  commas: number;
  /**
   * Commas as paragraph scoring counts them (`,` U+FF0C U+3001 U+060C) in the element's text
   * children and, recursively, inside its `a`, `span`, `em`, `strong`, `b` and `i` children.
   */
  ownCommas: number;
  p: number;
  img: number;
  li: number;
  input: number;
  headings: number;
  pre: number;
  table: number;
}

/** Where an element's stats live: a slot on the element itself (see StatsMap). */
const SLOT = Symbol('trawl.stats');
type Slotted = Element & { [SLOT]?: OwnedStats };
type OwnedStats = Stats & { owner: StatsMap };

/**
 * Stats of the elements under one root, as `computeStats` found them; read like a Map (`get`,
 * iteration in post-order, `keys`, `values`). The stats are kept on the elements themselves (a
 * Map.set per element cost 7% of a page's conversion): an element's slot holds the stats of the
 * latest computation, so `get` answers only for elements this map computed, and elements computed
 * again by a later map answer to that one alone. A map is read only until the next computation over
 * the same elements. After pruning, `updateAfterRemoval` brings a map up to date in place.
 */
export class StatsMap {
  private readonly els: Element[] = [];
  private readonly stats: Stats[] = [];
  /** Whether `forget` dropped elements that the lists still hold (see `compact`). */
  private dropped = false;

  /** Records `s` as the stats of `el` (computeStats, post-order). */
  set(el: Element, s: Stats): void {
    (s as OwnedStats).owner = this;
    (el as Slotted)[SLOT] = s as OwnedStats;
    this.els.push(el);
    this.stats.push(s);
  }

  get(el: Element): Stats | undefined {
    const s = (el as Slotted)[SLOT];
    return s !== undefined && s.owner === this ? s : undefined;
  }

  /** Replaces the stats of an element this map holds (in place: iteration sees the new values). */
  replace(el: Element, s: Stats): void {
    const old = this.get(el);
    if (old) Object.assign(old, s);
  }

  /**
   * Drops the elements of a subtree taken out of the tree (`el` and its descendants), so that
   * `get` and iteration no longer answer for them.
   */
  forget(el: Element): void {
    const stack: AnyNode[] = [el];
    while (stack.length) {
      const n = stack.pop()!;
      if (!isTag(n)) continue;
      const slotted = n as Slotted;
      if (slotted[SLOT]?.owner === this) slotted[SLOT] = undefined;
      for (const c of n.children) stack.push(c);
    }
    this.dropped = true;
  }

  /** Removes forgotten elements from the iteration lists (once per batch of `forget` calls). */
  private compact(): void {
    if (!this.dropped) return;
    this.dropped = false;
    let j = 0;
    for (let i = 0; i < this.els.length; i++) {
      if ((this.els[i] as Slotted)[SLOT]?.owner !== this) continue;
      this.els[j] = this.els[i];
      this.stats[j++] = this.stats[i];
    }
    this.els.length = this.stats.length = j;
  }

  keys(): IterableIterator<Element> {
    this.compact();
    return this.els[Symbol.iterator]();
  }

  values(): IterableIterator<Stats> {
    this.compact();
    return this.stats[Symbol.iterator]();
  }

  *[Symbol.iterator](): IterableIterator<[Element, Stats]> {
    this.compact();
    for (let i = 0; i < this.els.length; i++) yield [this.els[i], this.stats[i]];
  }
}

/** Whether a code unit is a comma (Latin, Arabic, small/vertical/fullwidth forms, CJK ideographic). */
function isComma(c: number): boolean {
  if (c < 0x60c) return c === 44;
  return c === 0x60c || c === 0xfe50 || c === 0xfe10 || c === 0xfe11 || c === 0x2e41 || c === 0x2e34 || c === 0x2e32 || c === 0xff0c || c === 0x3001;
}

/** Commas counted by the latest `measure` (module slots, so no object is allocated per text node). */
let measuredCommas = 0;
/** Of those, the ones paragraph scoring counts (`,` U+FF0C U+3001 U+060C). */
let measuredScoreCommas = 0;

/** Tags whose text scoring counts as the parent's own for commas (scoring.ts). */
const COMMA_INLINE = new Set(['a', 'span', 'em', 'strong', 'b', 'i']);

/**
 * Non-whitespace characters of a text; its commas go to `measuredCommas`. One scan (this runs on
 * every text node).
 */
function measure(s: string): number {
  let len = 0;
  let commas = 0;
  let scoreCommas = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isSpaceCode(c)) {
      len++;
      if (isComma(c)) {
        commas++;
        if (c === 44 || c === 0xff0c || c === 0x3001 || c === 0x60c) scoreCommas++;
      }
    }
  }
  measuredCommas = commas;
  measuredScoreCommas = scoreCommas;
  return len;
}

/** Non-whitespace characters of all text under `node` (what `Stats.len` counts), iterative. */
export function textLength(node: AnyNode): number {
  let n = 0;
  const stack: AnyNode[] = [node];
  while (stack.length) {
    const x = stack.pop()!;
    if (isText(x)) n += measure(x.data);
    else if (isTag(x)) for (const c of x.children) stack.push(c);
  }
  return n;
}

/** Computes Stats for every element under `root` (iterative post-order). */
export function computeStats(root: ParentNode): StatsMap {
  const map = new StatsMap();
  for (const el of postOrder(root)) map.set(el, aggregate(el, map));
  return map;
}

/**
 * Brings `map` up to date after subtrees were taken out of the tree under `root` (and text nodes
 * added beside them): forgets the removed elements and recomputes only their former ancestors,
 * deepest first, which gives the stats a full `computeStats(root)` would (the other elements'
 * subtrees did not change).
 * @param removed the removed elements with the parent each had before removal
 */
export function updateAfterRemoval(map: StatsMap, root: ParentNode, removed: { el: Element; parent: ParentNode }[]): void {
  const dirty = new Map<Element, number>();
  for (const { el, parent } of removed) {
    map.forget(el);
    let depth = 0;
    for (let p: ParentNode | null = parent; p && p !== root && isTag(p); p = p.parent) depth++;
    for (let p: ParentNode | null = parent; p && p !== root && isTag(p); p = p.parent, depth--) {
      if (dirty.has(p)) break;
      dirty.set(p, depth);
    }
  }
  const order = [...dirty].sort((a, b) => b[1] - a[1]);
  for (const [el] of order) map.replace(el, aggregate(el, map));
}

/**
 * Whether `input` is a task list's tick box: a disabled checkbox without a name, the first element of
 * its list item (`<li><input type=checkbox disabled> Book the venue</li>`, as markdown renderers write
 * `- [ ] item`). It submits nothing; the item is a line of the text, not a form.
 */
export function isTaskMark(input: Element): boolean {
  const a = input.attribs;
  if (a.type?.toLowerCase() !== 'checkbox' || a.disabled === undefined || a.name !== undefined) return false;
  const p = input.parent;
  return !!p && isTag(p) && p.name === 'li' && p.children.find(isTag) === input;
}

/** Stats of one element from its text children and its element children's stats in `map`. */
function aggregate(el: Element, map: StatsMap): Stats {
  const s: Stats = { len: 0, link: 0, own: 0, ownLink: 0, commas: 0, ownCommas: 0, p: 0, img: 0, li: 0, input: 0, headings: 0, pre: 0, table: 0 };
  for (const c of el.children) {
    if (isText(c)) {
      const len = measure(c.data);
      s.len += len;
      s.own += len;
      s.commas += measuredCommas;
      s.ownCommas += measuredScoreCommas;
    } else if (isTag(c)) {
      const cs = map.get(c);
      if (!cs) continue;
      if (COMMA_INLINE.has(c.name)) s.ownCommas += cs.ownCommas;
      s.len += cs.len;
      s.link += cs.link;
      s.commas += cs.commas;
      s.p += cs.p;
      s.img += cs.img;
      s.li += cs.li;
      s.input += cs.input;
      s.headings += cs.headings;
      s.pre += cs.pre;
      s.table += cs.table;
      if (INLINE_TAGS.has(c.name)) {
        s.own += cs.len;
        s.ownLink += cs.link;
      }
    }
  }
  switch (el.name) {
    case 'a':
      // An anchor without href (`<a id=x>`, often wrapping content after an XHTML `<a/>`) is no link.
      if (el.attribs.href !== undefined) {
        s.link = s.len;
        s.ownLink = s.own;
      }
      break;
    case 'p':
      s.p++;
      break;
    case 'img':
      s.img++;
      break;
    case 'li':
      s.li++;
      break;
    case 'input':
      // A task list's tick box is the item's mark, not a control (`isTaskMark`).
      if (!isTaskMark(el)) s.input++;
      break;
    case 'button':
    case 'select':
    case 'textarea':
      s.input++;
      break;
    case 'pre':
      s.pre++;
      break;
    case 'table':
      s.table++;
      break;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      s.headings++;
      // No control in a heading counts as a form: a button there is the toggle of the section it heads
      // (an accordion's question); a link to a bare `#` there is a script's toggle too, not link text.
      s.input = 0;
      if (s.link > 0 && togglesOnly(el)) s.link = s.ownLink = 0;
      break;
  }
  return s;
}

/** Whether every element child of `el` is a link to a bare `#` (after absolutizing: a URL ending in `#`). */
function togglesOnly(el: Element): boolean {
  let any = false;
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if (c.name !== 'a' || !c.attribs.href?.endsWith('#')) return false;
    any = true;
  }
  return any;
}

/** Share of an element's text inside links (0..1). */
export function linkDensity(s: Stats | undefined): number {
  if (!s || s.len === 0) return 0;
  return Math.min(1, s.link / s.len);
}

/** Characters outside links, and the largest link density, of a block of prose (softProse). */
const PROSE_TEXT = 200;
/** Characters outside links of a `cta`-named block holding a heading that make it a section (softProse). */
const CTA_SECTION_TEXT = 40;
const PROSE_LINK_DENSITY = 0.25;

/**
 * Whether `el` is boilerplate only by soft class words (`promo`, `cta`, `secondary`: hints.ts) and
 * reads as prose: at least 200 characters outside links and link density under 0.25. Such a block is
 * a marketing page's own section, not a teaser (prune.ts, region-clean.ts). A `cta`-named block
 * holding a heading needs only 40 characters (heading included): a call-to-action section is a
 * heading and a line ("Plan your migration. Book a two-week assessment with our engineers."),
 * which service pages' main text keeps; a bare "Talk to us. Get in touch today." stays below the bar,
 * and short `promo`, `dropdown` or `links` blocks are teasers and menus. An accordion's panel
 * (`isLabelledPanel`: `accordion-inner text-links`, `accordion-v2__dropdown`) needs 40 too: an FAQ's
 * answer is often one sentence.
 */
export function softProse(el: Element, s: Stats): boolean {
  const h = hintsOf(el);
  if (!h.soft || h.junk || s.input > 0) return false;
  const least = (h.cta && s.headings > 0) || isLabelledPanel(el) ? CTA_SECTION_TEXT : PROSE_TEXT;
  return s.len - s.link >= least && s.link < s.len * PROSE_LINK_DENSITY;
}

/**
 * Whether `el` is an accordion's panel as ARIA writes it (`role=region` labelled by its trigger,
 * `aria-labelledby`): the answer under a question of an FAQ, content however short.
 */
function isLabelledPanel(el: Element): boolean {
  return el.attribs.role === 'region' && !!el.attribs['aria-labelledby'];
}
