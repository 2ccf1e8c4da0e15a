/**
 * Paragraph scoring in the manner of Arc90/Mozilla Readability, on measures from stats.ts: every block
 * holding a paragraph of own text (>= 20 characters, mostly not links) scores 1 + commas + one point
 * per 100 characters (max 3), scaled down by its own link density, and hands that score to its
 * ancestors (full, 1/2, then 1/(3*level)). Each ancestor starts from a prior given by its tag, its
 * landmark role and its class/id hints. The best candidate is the one with the highest score after
 * discounting its overall link density.
 */
import { hintsOf, landmarkOf } from './hints.ts';
import { isTag, type Element, type ParentNode } from './dom.ts';
import { linkDensity, type StatsMap } from './stats.ts';

/** Blocks whose own text is handed to their parent first (they are paragraphs, not containers). */
const PARAGRAPH_TAGS = new Set(['p', 'pre', 'li', 'dd', 'dt', 'blockquote', 'figcaption', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'th', 'caption', 'address']);
const MIN_PARAGRAPH = 20;
const ANCESTOR_LEVELS = 5;

/** Class/id weight of an element: +25 content words, -25 boilerplate words (0 when both). */
export function classWeight(el: Element): number {
  const h = hintsOf(el);
  let w = 0;
  if (h.positive) w += 25;
  if (h.junk || h.chrome) w -= 25;
  else if (h.meta) w -= 10;
  return w;
}

/** Content-word class weight counts fully only for blocks of this much text (small blocks get a share). */
const FULL_WEIGHT_LEN = 800;

function prior(el: Element, articleBonus: boolean, len: number): number {
  let s = 0;
  switch (el.name) {
    case 'div': case 'section': case 'article': case 'main': case 'td': case 'body': case 'font': case 'center':
      s = 5;
      break;
    case 'pre': case 'blockquote':
      s = 3;
      break;
    case 'address': case 'ol': case 'ul': case 'dl': case 'dd': case 'dt': case 'li': case 'form':
      s = -3;
      break;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': case 'th':
      s = -5;
      break;
  }
  const mark = landmarkOf(el);
  if (mark === 'main') s += el.attribs.itemprop ? 25 : 10;
  else if (mark === 'article' && articleBonus) s += 10;
  else if (mark === 'chrome' || mark === 'junk') s -= 25;
  const w = classWeight(el);
  return s + (w > 0 ? w * Math.min(1, len / FULL_WEIGHT_LEN) : w);
}

/**
 * Scores candidate containers under `root`.
 * @param listings teaser lists (listing.ts): paragraph score stops there instead of reaching the page
 * @returns raw scores (before link-density discount) of every element that received paragraph score
 */
export function scoreCandidates(root: ParentNode, stats: StatsMap, listings: ReadonlySet<Element> = new Set()): Map<Element, number> {
  const scores = new Map<Element, number>();
  // Many <article> elements mean teaser cards, not one article: no landmark bonus then.
  let articles = 0;
  for (const el of stats.keys()) if (el.name === 'article') articles++;
  const articleBonus = articles <= 2;
  // Text inside teaser lists does not make an ancestor look like a content container.
  const listed = new Map<Element, number>();
  for (const l of listings) {
    let nested = false;
    for (let p = l.parent; p && !nested; p = p.parent) if (listings.has(p as Element)) nested = true;
    if (nested) continue;
    const n = stats.get(l)?.len ?? 0;
    for (let p = l.parent; p && isTag(p); p = p.parent) listed.set(p, (listed.get(p) ?? 0) + n);
  }
  const add = (el: Element, v: number) => {
    const cur = scores.get(el);
    scores.set(el, (cur ?? prior(el, articleBonus, (stats.get(el)?.len ?? 0) - (listed.get(el) ?? 0))) + v);
  };
  // keys() and get(), not the [el, stats] generator: the same order, without a generator step per element.
  for (const el of stats.keys()) {
    const s = stats.get(el)!;
    if (s.own < MIN_PARAGRAPH || INLINE_TAGS_SCORED.has(el.name)) continue;
    const ownLd = s.own ? s.ownLink / s.own : 0;
    if (ownLd > 0.5) continue;
    if (el.name.length === 2 && el.name[0] === 'h' && el.name !== 'hr') continue;
    const commas = s.ownCommas;
    const value = (1 + commas + Math.min(Math.floor(s.own / 100), 3)) * (1 - ownLd);
    let node: Element | null = PARAGRAPH_TAGS.has(el.name) ? parentElement(el) : el;
    for (let level = 0; node && level < ANCESTOR_LEVELS; level++) {
      add(node, level === 0 ? value : level === 1 ? value / 2 : value / (level * 3));
      // Teaser cards score their list, not the page around it.
      if (node === root || listings.has(node)) break;
      node = parentElement(node);
    }
  }
  return scores;
}

const INLINE_TAGS_SCORED = new Set(['a', 'span', 'em', 'strong', 'b', 'i', 'u', 'small', 'code', 'label', 'font', 'sup', 'sub', 'time', 'abbr', 'cite', 'q', 'mark']);

function parentElement(el: Element): Element | null {
  const p = el.parent;
  return p && isTag(p) ? p : null;
}

/** Candidate score after the link-density discount. */
export function finalScore(el: Element, scores: Map<Element, number>, stats: StatsMap): number {
  const s = scores.get(el);
  if (s === undefined) return 0;
  return s * (1 - linkDensity(stats.get(el)));
}
