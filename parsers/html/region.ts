/**
 * Choosing the main-content region from paragraph scores (scoring.ts): the best candidate, moved to a
 * common ancestor when near-best candidates share it (Readability's rule; teaser cards do not count),
 * or away from a teaser list that outscored a short article (listing.ts); then the siblings that belong
 * with it: those that score well, read like paragraphs, sit between included siblings (headings,
 * figures, code, tables, lists) or lead into them (title, lead image); then the ancestors whose
 * further text is prose rather than links (`expandRegion`).
 */
import { HEADING_TAGS, isAncestor, isTag, likeSiblings, textOf, type Element, type ParentNode } from './dom.ts';
import { hintsOf } from './hints.ts';
import { isListing } from './listing.ts';
import { finalScore } from './scoring.ts';
import { linkDensity, type StatsMap } from './stats.ts';
import { overlapF1, wordBag } from './jsonld.ts';

/** Near-best candidates (>= 75% of the best score) sharing an ancestor that make it the region. */
const MIN_ALTERNATIVES = 2;

/**
 * The top candidate: the best-scoring container, adjusted as described in the file header.
 * @returns undefined when nothing scored
 */
export function pickTop(root: ParentNode, stats: StatsMap, scores: Map<Element, number>, listings: ReadonlySet<Element>): Element | undefined {
  const ranked = [...scores.keys()]
    .map((el) => ({ el, score: finalScore(el, scores, stats) }))
    .sort((a, b) => b.score - a.score);
  if (!ranked.length || ranked[0].score <= 0) return undefined;
  let top = ranked[0].el;
  let topScore = ranked[0].score;
  // A teaser list beating a short article: prefer the best candidate outside the list.
  let avoid: Element | undefined;
  if (listings.has(top)) {
    const listing = top;
    const listingLen = stats.get(listing)?.len ?? 0;
    const alt = ranked.find(
      (c) => c.score >= 0.3 * topScore && (stats.get(c.el)?.len ?? 0) >= 0.2 * listingLen && !isAncestor(c.el, listing) && !isAncestor(listing, c.el) && !listings.has(c.el),
    );
    if (alt) {
      avoid = listing;
      top = alt.el;
      topScore = alt.score;
    }
  }
  const blocked = (p: Element) => !!avoid && isAncestor(p, avoid);
  // Readability's rule for articles split into similar parts; cards of a teaser list do not count.
  const alts = ranked
    .filter((c) => c.el !== top && c.score / topScore >= 0.75)
    .slice(0, 5)
    .map((c) => c.el)
    .filter((el) => !isAncestor(top, el) && !inListing(el, stats));
  if (alts.length >= MIN_ALTERNATIVES) {
    for (let p = top.parent; p && p !== root && isTag(p) && !blocked(p); p = p.parent) {
      if (alts.filter((a) => isAncestor(p as Element, a)).length >= MIN_ALTERNATIVES) {
        top = p;
        break;
      }
    }
  }
  let last = finalScore(top, scores, stats);
  const threshold = last / 3;
  for (let p = top.parent; p && p !== root && isTag(p) && !blocked(p); p = p.parent) {
    if (!scores.has(p)) continue;
    const ps = finalScore(p, scores, stats);
    if (ps < threshold) break;
    if (ps > last) {
      top = p;
      break;
    }
    last = ps;
  }
  while (top.parent && top.parent !== root && isTag(top.parent) && top.parent.children.filter(isTag).length === 1) {
    top = top.parent;
  }
  return top;
}

/** Whether one of the three nearest ancestors is a teaser list. */
function inListing(el: Element, stats: StatsMap): boolean {
  let p = el.parent;
  for (let i = 0; i < 3 && p && isTag(p); i++, p = p.parent) if (isListing(p, stats)) return true;
  return false;
}

const STRUCTURAL = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figure', 'img', 'picture', 'pre', 'table', 'ul', 'ol', 'dl', 'blockquote', 'hr', 'p', 'div', 'section', 'details', 'math', 'video']);
const LEAD_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figure', 'img', 'picture']);

/** A div or section whose first element is a heading and which holds more than the heading. */
function isHeadedSection(el: Element): boolean {
  if (el.name !== 'div' && el.name !== 'section') return false;
  const kids = el.children.filter(isTag);
  return kids.length >= 2 && HEADING_TAGS.has(kids[0].name);
}

/** The region: the top candidate plus the siblings that belong with it, in document order. */
export function mergeSiblings(root: ParentNode, top: Element, stats: StatsMap, scores: Map<Element, number>): Element[] {
  const parent = top.parent;
  if (!parent || top === root) return [top];
  const siblings = parent.children.filter(isTag);
  const topScore = finalScore(top, scores, stats);
  const threshold = Math.max(10, topScore * 0.2);
  // A container the site itself names as content (article-body, maincontent ...) rarely continues in a
  // differently named sibling: such siblings must score much higher to join.
  const namedTop = hintsOf(top).positive;
  const topClass = top.attribs.class ?? '';
  const included = siblings.map((s) => {
    if (s === top) return true;
    const sameKind = s.name === top.name && (s.attribs.class ?? '') === topClass && (topClass !== '' || s.name === 'section' || s.name === 'article');
    const bonus = sameKind ? topScore * 0.2 : 0;
    if (scores.has(s) && finalScore(s, scores, stats) + bonus >= (namedTop && !sameKind ? Math.max(threshold, topScore * 0.5) : threshold)) return true;
    const st = stats.get(s);
    if (!st || hintsOf(s).junk) return false;
    // Repeated blocks of the top's own kind (section after section, column after column) belong together.
    if (sameKind && st.len > 0 && linkDensity(st) < 0.5 && !hintsOf(s).chrome) return true;
    // At the top level, loose text blocks next to the page wrapper are notices, not paragraphs.
    if (parent === root && s.name !== 'p') return false;
    if (s.name === 'p' || (st.own === st.len && st.len > 0 && !HEADING_TAGS.has(s.name))) {
      const ld = linkDensity(st);
      if (st.len > 70 && ld < 0.25) return true;
      if (st.len > 0 && st.len <= 70 && ld === 0 && /[.!?。](\s|$)/.test(textOf(s))) return true;
    }
    return false;
  });
  const first = included.indexOf(true);
  const last = included.lastIndexOf(true);
  for (let i = first + 1; i < last; i++) {
    if (included[i]) continue;
    const s = siblings[i];
    const st = stats.get(s);
    const h = hintsOf(s);
    if (STRUCTURAL.has(s.name) && !h.junk && !h.chrome && linkDensity(st) < 0.5) included[i] = true;
  }
  // Leading blocks of the same region: a title, a figure, or a headed section (heading first, then
  // prose or code: a synopsis, a summary) just before the content, up to the first link-heavy block.
  for (let i = first - 1, steps = 0; i >= 0 && steps < 3; i--, steps++) {
    const s = siblings[i];
    const st = stats.get(s);
    const lead = LEAD_TAGS.has(s.name) ? linkDensity(st) < 0.5 : isHeadedSection(s) && linkDensity(st) < 0.25 && !hintsOf(s).junk && !hintsOf(s).chrome;
    if (!lead) break;
    included[i] = true;
  }
  return siblings.filter((_, i) => included[i]);
}

/** Largest link density of the text an ancestor adds for the region to widen to it. */
const MAX_EXPAND_LINK_DENSITY = 0.35;
/** Widening must add at least this share of the region's own text (a short appeal or bio is not a section). */
const MIN_EXPAND_SHARE = 0.3;
/** ... and at least this many characters (navigation remnants around a near-empty page are not content). */
const MIN_EXPAND_CHARS = 200;

/** An ancestor adding less text than this (characters: a vote arrow, a permalink) is passed through unjudged. */
const MIN_JUDGED_EXTRA = 25;

/**
 * Widens the region to its ancestors, up to the page root (excluded), while the text each ancestor
 * adds beyond the region is mostly prose: neither links nor teaser lists (listing.ts). Pages built of
 * many sections (service pages, product descriptions, forum threads) hold their content in several
 * containers, and what remains around them after pruning is content, while navigation and teaser
 * lists are link text. A widening that adds little next to the region (an appeal or a bio after an
 * article) is not made. The caller does not widen a region the site names as an article body.
 * @param region sibling elements (mergeSiblings); returned unchanged when no ancestor qualifies
 */
export function expandRegion(root: ParentNode, region: Element[], stats: StatsMap, listings: ReadonlySet<Element>): Element[] {
  let len = 0;
  let link = 0;
  for (const el of region) {
    len += stats.get(el)?.len ?? 0;
    link += stats.get(el)?.link ?? 0;
  }
  const regionLen = len;
  let out = region;
  let best = region;
  for (let a = region[0]?.parent; a && a !== root && isTag(a); a = a.parent) {
    const s = stats.get(a);
    if (!s) break;
    const extra = s.len - len;
    // Inside one post of a thread, the little the post's wrapper adds (its poster's name, a
    // permalink: link text) is the post's own chrome, not navigation around the content.
    const postChrome = extra < MAX_ITEM_CHROME && inRepeatedItem(a);
    if (!postChrome && extra >= MIN_JUDGED_EXTRA && ((s.link - link) / extra > MAX_EXPAND_LINK_DENSITY || listedLen(a, out, listings, stats) > extra / 2)) break;
    out = [a];
    len = s.len;
    link = s.link;
    if (len - regionLen >= Math.max(regionLen * MIN_EXPAND_SHARE, MIN_EXPAND_CHARS)) best = out;
  }
  if (out[0]?.parent === root) return widenAtRoot(root, out, regionLen, stats, listings) ?? best;
  return best;
}

/**
 * An ancestor inside a repeated item (a post of a thread) adding less text than this (characters) is
 * passed through unjudged, links or not: the poster's name and permalink beside the post's body.
 */
const MAX_ITEM_CHROME = 100;
/** Levels from an ancestor up to the repeated item (a post of a thread) holding it. */
const ITEM_LEVELS = 2;
/** Least number of like siblings (same tag and class, the item included) of a repeated item. */
const MIN_LIKE_ITEMS = 3;

/**
 * Whether `el`, or one of its ITEM_LEVELS nearest ancestors, is one of at least MIN_LIKE_ITEMS
 * siblings of the same tag and class: one post of a thread, one card of a list.
 */
function inRepeatedItem(el: Element): boolean {
  let cur: Element = el;
  for (let i = 0; i <= ITEM_LEVELS; i++) {
    const p = cur.parent;
    if (!p || !isTag(p)) return false;
    if (likeSiblings(cur).length >= MIN_LIKE_ITEMS) return true;
    cur = p;
  }
  return false;
}

/**
 * Widening at the top level, for pages whose sections sit directly in the body: the region and the
 * body's other headed, prose-like blocks (not junk-named, not teaser lists), when together they add
 * enough prose. Undefined when they do not.
 */
function widenAtRoot(root: ParentNode, out: Element[], regionLen: number, stats: StatsMap, listings: ReadonlySet<Element>): Element[] | undefined {
  const prose = (k: Element) => (stats.get(k)?.headings ?? 0) > 0 && linkDensity(stats.get(k)) <= MAX_EXPAND_LINK_DENSITY && !listings.has(k) && !hintsOf(k).junk;
  const kids = root.children.filter(isTag).filter((k) => out.includes(k) || prose(k));
  let len = 0;
  let link = 0;
  let extra = 0;
  let extraLink = 0;
  let listed = 0;
  for (const k of kids) {
    const s = stats.get(k);
    len += s?.len ?? 0;
    link += s?.link ?? 0;
    if (out.includes(k)) continue;
    extra += s?.len ?? 0;
    extraLink += s?.link ?? 0;
    listed += listedLen(k, [], listings, stats);
  }
  if (extra <= 0 || extraLink / extra > MAX_EXPAND_LINK_DENSITY || listed > extra / 2) return undefined;
  return len - regionLen >= Math.max(regionLen * MIN_EXPAND_SHARE, MIN_EXPAND_CHARS) ? kids : undefined;
}

/** Text in teaser lists under `a` outside the elements of `inner`. */
function listedLen(a: Element, inner: Element[], listings: ReadonlySet<Element>, stats: StatsMap): number {
  let n = 0;
  for (const l of listings) {
    if (!isAncestor(a, l) || inner.some((i) => i === l || isAncestor(i, l) || isAncestor(l, i))) continue;
    let nested = false;
    for (let p = l.parent; p && p !== a && !nested; p = p.parent) if (listings.has(p as Element)) nested = true;
    if (!nested) n += stats.get(l)?.len ?? 0;
  }
  return n;
}

/** A declared article body must match a container at least this well (word-overlap F1) to be used. */
const MIN_DECLARED_F1 = 0.6;

/**
 * The container whose text best matches the page's declared article body (JSON-LD `articleBody`),
 * among the 30 best-scoring candidates and their ancestors; undefined when none matches well enough.
 */
export function pickByDeclaredBody(stats: StatsMap, scores: Map<Element, number>, articleBody: string): Element | undefined {
  const reference = wordBag(articleBody);
  let size = 0;
  for (const n of reference.values()) size += n;
  if (size < 20) return undefined;
  // Each final score computed once, not once per comparison (the same order: the same comparisons).
  const byScore = [...scores.keys()].map((el) => ({ el, score: finalScore(el, scores, stats) }));
  const ranked = byScore.sort((a, b) => b.score - a.score).slice(0, 30).map((x) => x.el);
  const pool = new Set<Element>();
  for (const el of ranked) {
    let cur: Element | null = el;
    for (let i = 0; cur && i < 5; i++, cur = cur.parent && isTag(cur.parent) ? cur.parent : null) pool.add(cur);
  }
  let best: Element | undefined;
  let bestF1 = MIN_DECLARED_F1;
  for (const el of pool) {
    const f1 = overlapF1(el, reference, size);
    if (f1 > bestF1) {
      best = el;
      bestF1 = f1;
    }
  }
  return best;
}
