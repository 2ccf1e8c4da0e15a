/**
 * `onlyMainContent` (interface.md, Scrape options: "deterministic HTML-level filter dropping headers,
 * navigation and footers"): finds the main content of a page and returns only it.
 *
 * 1. Prune boilerplate that announces itself (landmarks, class/id words, labels; prune.ts), and blocks
 *    a crawl has seen repeated across the site (fingerprints.ts).
 * 2. Score paragraph containers (scoring.ts) and pick the best one; move up to a common ancestor when
 *    several near-best candidates share it (Readability's rule), then add siblings that score well,
 *    look like paragraphs, or sit between included siblings (headings, figures, code, tables, lists).
 * 3. Clean the region conditionally (link lists, widgets, forms) and put the page's title heading
 *    back in front when it was outside the region.
 * 4. When that leaves almost nothing (pages that are mostly a list or a table), fall back to the safe
 *    cleanup: only landmark chrome and junk-named blocks are dropped.
 */
import { cloneNode } from 'domhandler';
import { HEADING_TAGS, isTag, normalizeSpace, textOf, elements, type AnyNode, type Element, type ParentNode } from './dom.ts';
import { hintsOf, landmarkOf } from './hints.ts';
import { boilerplateReason, cleanConditionally, descendable, pruneBoilerplate } from './prune.ts';
import { finalScore, scoreCandidates } from './scoring.ts';
import { computeStats, linkDensity, type StatsMap } from './stats.ts';
import { removeFingerprinted } from './fingerprints.ts';
import { findListings, isListing } from './listing.ts';

export interface MainContentOptions {
  /** Page titles (`<title>`, `og:title`) used to recognise the title heading. */
  titles?: string[];
  /** Fingerprints of blocks known to repeat across the site (fingerprints.ts); they are removed. */
  boilerplate?: ReadonlySet<string>;
}

export interface MainContentResult {
  /** Nodes to serialize, in order. */
  nodes: AnyNode[];
}

/** Below this share of the safely cleaned text, the extracted region is considered a miss. */
const MIN_SHARE_OF_SAFE = 0.1;
const MIN_MAIN_LEN = 25;

/**
 * Extracts the main content under `root` (a basically cleaned `body`), editing the tree in place.
 * @returns the region's nodes, or undefined when no convincing region exists: the caller then applies
 *   `safeCleanup` to a fresh copy of the page (the tree given here has been pruned already)
 */
export function extractMainContent(root: ParentNode, opts: MainContentOptions = {}): MainContentResult | undefined {
  if (opts.boilerplate?.size) removeFingerprinted(root, opts.boilerplate);
  const titleHeading = findTitleHeading(root, opts.titles ?? []);
  const titleClone = titleHeading ? cloneNode(titleHeading, true) : undefined;

  const stats0 = computeStats(root);
  const total = rootLen(root, stats0);
  const safeLen = total - boilerplateLen(root, stats0, total, true);
  pruneBoilerplate(root, stats0, false);

  const stats = computeStats(root);
  const listings = findListings(stats);
  const scores = scoreCandidates(root, stats, listings);
  const top = pickTop(root, stats, scores, listings);
  if (!top) return undefined;

  const region = mergeSiblings(root, top, stats, scores);
  const regionLen = region.reduce((n, el) => n + (stats.get(el)?.len ?? 0), 0);
  cleanConditionally(region, stats, scores, regionLen);
  const after = computeStats(root);
  const mainLen = region.reduce((n, el) => n + (el.parent ? (after.get(el)?.len ?? 0) : 0), 0);
  if (mainLen < MIN_MAIN_LEN || mainLen < safeLen * MIN_SHARE_OF_SAFE) return undefined;

  const nodes: AnyNode[] = region.filter((el) => el.parent);
  if (titleClone && titleHeading && !isInside(titleHeading, nodes)) nodes.unshift(titleClone);
  return { nodes };
}

/**
 * The safe cleanup used when no main region is found: drops only landmark chrome (nav, aside, page
 * header/footer, banner/contentinfo roles, dialogs) and junk-named blocks (cookie banners, share bars,
 * ads ...) that do not hold a large share of the page. Edits `root` in place.
 */
export function safeCleanup(root: ParentNode, opts: MainContentOptions = {}): void {
  if (opts.boilerplate?.size) removeFingerprinted(root, opts.boilerplate);
  pruneBoilerplate(root, computeStats(root), true);
}

function rootLen(root: ParentNode, stats: StatsMap): number {
  if (isTag(root as Element)) return stats.get(root as Element)?.len ?? 0;
  let n = 0;
  for (const c of root.children) if (isTag(c)) n += stats.get(c)?.len ?? 0;
  return n;
}

/** Text length the (safe) prune would remove, without removing anything. */
function boilerplateLen(root: ParentNode, stats: StatsMap, total: number, safeOnly: boolean): number {
  let removed = 0;
  const stack = [...root.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (boilerplateReason(n, stats, total, safeOnly)) removed += stats.get(n)?.len ?? 0;
    else if (descendable(n)) stack.push(...n.children);
  }
  return removed;
}

function pickTop(root: ParentNode, stats: StatsMap, scores: Map<Element, number>, listings: ReadonlySet<Element>): Element | undefined {
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
      (c) => c.score >= 0.3 * topScore && (stats.get(c.el)?.len ?? 0) >= 0.2 * listingLen && !contains(c.el, listing) && !contains(listing, c.el) && !listings.has(c.el),
    );
    if (alt) {
      avoid = listing;
      top = alt.el;
      topScore = alt.score;
    }
  }
  const blocked = (p: Element) => !!avoid && contains(p, avoid);
  // Readability's rule for articles split into similar parts; cards of a teaser list do not count.
  const alts = ranked
    .filter((c) => c.el !== top && c.score / topScore >= 0.75)
    .slice(0, 5)
    .map((c) => c.el)
    .filter((el) => !contains(top, el) && !inListing(el, stats));
  if (alts.length >= 3) {
    for (let p = top.parent; p && p !== root && isTag(p) && !blocked(p); p = p.parent) {
      if (alts.filter((a) => contains(p as Element, a)).length >= 3) {
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

function insideContent(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) {
    if (!isTag(p)) continue;
    const m = landmarkOf(p);
    if (m === 'main' || m === 'article') return true;
  }
  return false;
}

function contains(ancestor: Element, el: Element): boolean {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

const STRUCTURAL = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figure', 'img', 'picture', 'pre', 'table', 'ul', 'ol', 'dl', 'blockquote', 'hr', 'p', 'div', 'section', 'details', 'math', 'video']);
const LEAD_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figure', 'img', 'picture']);

/** The region: the top candidate plus the siblings that belong with it, in document order. */
function mergeSiblings(root: ParentNode, top: Element, stats: StatsMap, scores: Map<Element, number>): Element[] {
  const parent = top.parent;
  if (!parent || top === root) return [top];
  const siblings = parent.children.filter(isTag);
  const topScore = finalScore(top, scores, stats);
  const threshold = Math.max(10, topScore * 0.2);
  const topClass = top.attribs.class ?? '';
  const included = siblings.map((s) => {
    if (s === top) return true;
    const sameKind = s.name === top.name && (s.attribs.class ?? '') === topClass && (topClass !== '' || s.name === 'section' || s.name === 'article');
    const bonus = sameKind ? topScore * 0.2 : 0;
    if (scores.has(s) && finalScore(s, scores, stats) + bonus >= threshold) return true;
    const st = stats.get(s);
    if (!st || hintsOf(s).junk) return false;
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
  for (let i = first - 1, steps = 0; i >= 0 && steps < 3; i--, steps++) {
    const s = siblings[i];
    if (!LEAD_TAGS.has(s.name) || linkDensity(stats.get(s)) >= 0.5) break;
    included[i] = true;
  }
  return siblings.filter((_, i) => included[i]);
}

function isInside(el: Element, nodes: AnyNode[]): boolean {
  const set = new Set<unknown>(nodes);
  for (let p: ParentNode | Element | null = el; p; p = p.parent) if (set.has(p)) return true;
  return false;
}

function normTitle(s: string): string {
  return normalizeSpace(s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' '));
}

function titleTokens(s: string): string[] {
  return normTitle(s).split(' ').filter(Boolean);
}

/**
 * How well a heading matches a page title: the share of the title's words the heading covers, when
 * nearly all of the heading's words are in the title (0 otherwise). "Post title | Site" favours the
 * heading holding the post title over the one holding the site name.
 */
function titleCoverage(heading: string, titles: string[][]): number {
  const h = titleTokens(heading);
  if (!h.length || h.length > 60) return 0;
  let best = 0;
  for (const t of titles) {
    const bag = new Map<string, number>();
    for (const w of t) bag.set(w, (bag.get(w) ?? 0) + 1);
    let hit = 0;
    for (const w of h) {
      const n = bag.get(w) ?? 0;
      if (n > 0) {
        hit++;
        bag.set(w, n - 1);
      }
    }
    if (hit / h.length >= 0.8) best = Math.max(best, hit / t.length);
  }
  return best;
}

const HEADING_PENALTY: Record<string, number> = { h1: 0, h2: 0.05, h3: 0.1 };

/**
 * The heading that titles the page: among h1-h3, the one covering most of a page title (`<title>`,
 * `og:title`), headings in page chrome (header, nav, footer) counting less; without a match, the first
 * h1 outside the chrome.
 */
export function findTitleHeading(root: ParentNode, titles: string[]): Element | undefined {
  const wanted = titles.map(titleTokens).filter((t) => t.length > 0);
  let best: Element | undefined;
  let bestScore = 0.2;
  let firstH1: Element | undefined;
  for (const el of elements(root)) {
    const penalty = HEADING_PENALTY[el.name];
    if (penalty === undefined) continue;
    const text = textOf(el);
    const chrome = chromeLevel(el);
    if (el.name === 'h1' && !firstH1 && normalizeSpace(text) && !chrome) firstH1 = el;
    const score = titleCoverage(text, wanted) - penalty - chrome;
    if (score > bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best ?? firstH1;
}

/** 0.5 inside landmark chrome (nav, aside, page header/footer), 0.3 inside chrome-named blocks, else 0. */
function chromeLevel(el: Element): number {
  let level = 0;
  for (let p = el.parent; p; p = p.parent) {
    if (!isTag(p)) continue;
    const m = landmarkOf(p);
    if (m === 'chrome' || m === 'junk') return 0.5;
    if ((p.name === 'header' || p.name === 'footer') && !insideContent(p)) return 0.5;
    const h = hintsOf(p);
    if ((h.chrome || h.junk) && !h.positive) level = 0.3;
  }
  return level;
}
