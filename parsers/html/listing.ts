/**
 * Teaser-list detection for the main-content extractor. A block of "more stories" cards (each a short
 * block led by a link: headline link, then a one-line summary) can hold more paragraph text than a
 * short article on the same page, and paragraph scoring alone would pick it. A block is a listing when
 * at least three of its children, and most of them, are such cards.
 */
import { isTag, isText, type AnyNode, type Element } from './dom.ts';
import type { StatsMap } from './stats.ts';

/** Cards are shorter than this (non-whitespace characters). */
const MAX_CARD_LEN = 500;

const HEADLINE = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'img', 'picture']);

/** Whether `el` has a heading or image descendant. */
function hasHeadline(el: Element): boolean {
  const stack = [...el.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (isTag(n)) {
      if (HEADLINE.has(n.name)) return true;
      for (const c of n.children) stack.push(c);
    }
  }
  return false;
}

/** Whether the first visible text inside `el` belongs to a link. */
function startsWithLink(el: Element): boolean {
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) {
      if (!n.data.trim()) continue;
      for (let p = n.parent; p && p !== el; p = p.parent) {
        if (isTag(p) && p.name === 'a' && p.attribs.href !== undefined) return true;
      }
      return false;
    }
    if (isTag(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return false;
}

/** Whether `el` (or the single-child wrapper chain under it) is a list of teaser cards. */
export function isListing(el: Element, stats: StatsMap): boolean {
  let cur = el;
  for (;;) {
    const kids = cur.children.filter(isTag);
    if (kids.length !== 1) break;
    cur = kids[0];
  }
  if (cur.name === 'dl' || cur.name === 'table' || cur.name === 'tbody') return false;
  const kids = cur.children.filter((k): k is Element => isTag(k) && (stats.get(k)?.len ?? 0) > 0);
  if (kids.length < 3) return false;
  let cards = 0;
  for (const k of kids) {
    const s = stats.get(k)!;
    // A card: short, led by a link, and shaped like a teaser (a headline or image, or several blocks).
    // The cheap measures first: the shape walks the card's subtree.
    if (s.len >= MAX_CARD_LEN || s.link < 0.1 * s.len) continue;
    const shaped = hasHeadline(k) || k.children.filter((c) => isTag(c) && (stats.get(c)?.len ?? 0) > 0).length >= 2;
    if (shaped && startsWithLink(k)) cards++;
  }
  return cards >= 3 && cards >= 0.7 * kids.length;
}

/** Every teaser list under `root` (elements passing `isListing`). */
export function findListings(stats: StatsMap): Set<Element> {
  const out = new Set<Element>();
  // keys() and get(), not the [el, stats] generator: the same order, without a generator step per element.
  for (const el of stats.keys()) if (stats.get(el)!.link > 0 && el.children.length >= 3 && isListing(el, stats)) out.add(el);
  return out;
}
