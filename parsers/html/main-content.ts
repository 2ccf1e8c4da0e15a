/**
 * `onlyMainContent` (interface.md, Scrape options: "deterministic HTML-level filter dropping headers,
 * navigation and footers"): finds the main content of a page and returns only it.
 *
 * 1. Prune boilerplate that announces itself (landmarks, class/id words, labels; prune.ts), and blocks
 *    a crawl has seen repeated across the site (fingerprints.ts).
 * 2. Score paragraph containers (scoring.ts; teaser lists, listing.ts, keep their score to
 *    themselves) and choose the region (region.ts): the container matching the page's JSON-LD
 *    `articleBody` when it declares one (jsonld.ts), else the best candidate adjusted Readability-style
 *    (or the page's single `main` landmark around it), plus the siblings that belong with it, widened to
 *    the ancestors whose further text reads as content, not links; else the single `main` landmark.
 * 3. Clean the region conditionally (region-clean.ts: link lists, widgets, forms, promos, picture
 *    captions; small blocks after the story inside the `main` landmark it gave way to) and put the
 *    page's title heading (title.ts) back in front when it was outside the region.
 * 4. When that leaves almost nothing (pages that are mostly a list or a table), the caller falls back to
 *    the safe cleanup (`safeCleanup`): only landmark chrome and chrome/junk-named blocks are dropped.
 */
import { cloneNode } from 'domhandler';
import { detach, elements, isAncestor, isTag, likeSiblings, normalizeSpace, relink, textOf, type AnyNode, type Element, type ParentNode } from './dom.ts';
import { hintsOf, landmarkOf, namesArticleBody, namesPosterPane } from './hints.ts';
import { boilerplateReason, descendable, pruneBoilerplate, type Pruned } from './prune.ts';
import { blankAlts, cleanConditionally, dropAccountPrompts, dropMediaCaptions, dropPostNotes, dropPosterPanes, dropRepeatedControls, dropRepeatedQuotes, dropReplySubjects, dropRenditionPairs, dropSiblingCopies, separateFusedInlines, type CopyRegistry } from './region-clean.ts';
import { scoreCandidates } from './scoring.ts';
import { computeStats, textLength, updateAfterRemoval, type StatsMap } from './stats.ts';
import { removeFingerprinted } from './fingerprints.ts';
import { findListings } from './listing.ts';
import { expandRegion, mergeSiblings, pickByDeclaredBody, pickTop } from './region.ts';
import { findTitleHeading } from './title.ts';

export { findTitleHeading };

export interface MainContentOptions {
  /** Page titles (`<title>`, `og:title`) used to recognise the title heading. */
  titles?: string[];
  /** Fingerprints of blocks known to repeat across the site (fingerprints.ts); they are removed. */
  boilerplate?: ReadonlySet<string>;
  /** The article text the page declares in JSON-LD (`articleBody`, jsonld.ts), used as evidence. */
  articleBody?: string;
  /**
   * The page declares itself a product (JSON-LD `Product`, `og:type` product): blocks labelled as
   * customer reviews are pruned like recommendations (prune.ts).
   */
  product?: boolean;
  /**
   * Whether the page may hold a `figcaption` (false when its raw HTML has none: the caption pass then
   * skips its walk over the region). Unset means it may.
   */
  captions?: boolean;
}

export interface MainContentResult {
  /** Nodes to serialize, in order. */
  nodes: AnyNode[];
}

/**
 * A tap on the region choice for benchmarks and training only (bench/main-content/block-model.ts
 * installs one when imported; the service never sets it): `before` sees the basically cleaned page
 * and its stats before anything is pruned and returns a state, `after` gets that state and the rules'
 * cleaned region and returns the nodes to serialize (in document order).
 */
export interface RegionTap {
  before(root: ParentNode, stats: StatsMap): unknown;
  after(state: unknown, region: AnyNode[]): AnyNode[];
}

/** The installed tap (`current`), if any. */
export const regionTap: { current?: RegionTap } = {};

/** Below this share of the safely cleaned text (teaser lists aside), the extracted region is a fragment. */
const MIN_SHARE_OF_SAFE = 0.4;
/**
 * The share of the safely cleaned text a region made mostly of repeated short items (slides of a
 * carousel, cards of a promo strip: `repeatedShortLen`) must hold: such a region is weak evidence.
 */
const MIN_SHARE_OF_SAFE_REPEATED = 0.5;
/** Share (0-1) of a region's text in repeated short items from which the region is weak. */
const REPEATED_REGION_SHARE = 0.8;
/** Items under this many characters, at least REPEATED_MIN_ITEMS siblings of one tag and class, are repeated short items. */
const REPEATED_ITEM_MAX_LEN = 200;
const REPEATED_MIN_ITEMS = 3;
const MIN_MAIN_LEN = 25;
/** A second article-body-named container this large (share of the first) means the name recurs per post. */
const RECURRING_BODY_SHARE = 0.25;
/** A declared body under this share of the rules' one container is a thread's first post, not the whole content. */
const DECLARED_MAJORITY = 0.5;
/** JSON-LD article bodies shorter than this (characters) are not used as evidence. */
const MIN_DECLARED_CHARS = 500;
/** What the safe cleanup keeps beyond the region is link lists when at least this share (0-1) of it is link text. */
const LINK_LISTS_SHARE = 0.9;
/** A region this long outside links (characters) can be weighed by its text outside links. */
const MIN_PROSE_REGION = 1000;

/**
 * Extracts the main content under `root` (a basically cleaned `body`), editing the tree in place.
 * @returns the region's nodes, or undefined when no convincing region exists: the caller then applies
 *   `safeCleanup` to a fresh copy of the page (the tree given here has been pruned already)
 */
export function extractMainContent(root: ParentNode, opts: MainContentOptions = {}): MainContentResult | undefined {
  if (opts.boilerplate?.size) removeFingerprinted(root, opts.boilerplate);
  const titleHeading = findTitleHeading(root, opts.titles ?? []);
  const titleClone = titleHeading ? cloneNode(titleHeading, true) : undefined;

  const stats = computeStats(root);
  const total = rootLen(root, stats);
  const safeDropped = new Set<Element>();
  const unsafe = boilerplateLen(root, stats, total, true, safeDropped);
  const safeLen = total - unsafe.len;
  const safeLink = rootLen(root, stats, 'link') - unsafe.link;
  const tap = regionTap.current;
  const tapState = tap?.before(root, stats);
  const pruned = pruneBoilerplate(root, stats, false, opts.product);
  updateAfterRemoval(stats, root, pruned);
  const listings = findListings(stats);
  const scores = scoreCandidates(root, stats, listings);
  // Short declared bodies are often summaries: trusted only from ~80 words on.
  const declared = opts.articleBody && opts.articleBody.length >= MIN_DECLARED_CHARS ? pickByDeclaredBody(stats, scores, opts.articleBody) : undefined;
  let top = pickTop(root, stats, scores, listings) ?? declared ?? mainLandmark(stats);
  if (!top) return undefined;
  // A page that marks its main content once: the best paragraphs' container gives way to it (product
  // pages, service pages and forums spread their content over many blocks of that landmark), and the
  // region widens to the prose around it; not when the site names an article body there.
  const named = namedArticleBody(top, stats);
  const main = named ? undefined : mainLandmark(stats);
  const best = top;
  if (main && isAncestor(main, top)) top = main;
  const merged = mergeSiblings(root, top, stats, scores);
  let region = named ? merged : expandRegion(root, merged, stats, listings);
  // The declared article body is evidence: the region gives way to it, unless the rules chose one
  // container holding it as a small part: a thread declares its first post, and the replies in
  // sequence after it are content too.
  if (declared) {
    const len = stats.get(region[0])?.len ?? 0;
    const thread = region.length === 1 && isAncestor(region[0], declared) && (stats.get(declared)?.len ?? 0) < len * DECLARED_MAJORITY;
    if (!thread) region = [declared];
  }
  // A region inside a block the safe cleanup's measure drops (on the whole page, dialogs included) is
  // chrome the scoring favoured: a page header's promo lines, kept by the prune because next to the page
  // net of its consent dialog the header looked like most of the text. The safe cleanup's page is the
  // better answer (the item grid below the header is the content).
  if (!declared && region.some((el) => insideAny(el, safeDropped))) return undefined;
  const regionLen = region.reduce((n, el) => n + (stats.get(el)?.len ?? 0), 0);
  const wrappedCards: Element[] = [];
  const cleaned = cleanConditionally(region, stats, scores, regionLen, wrappedCards);
  const mainLen = region.reduce((n, el) => n + (el.parent ? lenAfterRemoval(el, stats, cleaned) : 0), 0);
  if (mainLen < MIN_MAIN_LEN) return undefined;
  // A region holding a small part of what the safe cleanup keeps is a fragment of the content (an
  // intro above a grid, one post of a thread, one card of a listing); teaser lists of other pages
  // around it do not count (a short story above "more stories"), unless their cards are links whole
  // (an item grid, whose slogan or banner above is not the content); a declared body is evidence enough.
  // The teaser lists count again when the region holds no sentence (no paragraph, no comma): a
  // shop's filter facets ("Batteries 1791", "Cables 2480") chosen over its product grid are not a story
  // that other stories follow.
  // Poster panes the cleaning dropped (`message-user`, hints.ts) count as the region's here: a thread
  // of short posts beside large profile boxes is not a fragment of its page.
  const base = declared ? 0 : safeLen - (holdsSentences(region, stats) ? teaserLenOutside(region, listings, stats) : 0);
  let least = base * MIN_SHARE_OF_SAFE;
  // A region that is mostly a row of short slides or cards (a hero carousel, a strip of teasers) must
  // hold more of the page: its items are a page's openers, not its content.
  if (mainLen >= least && mainLen < base * MIN_SHARE_OF_SAFE_REPEATED && repeatedShortLen(region, stats) >= regionLen * REPEATED_REGION_SHARE) {
    least = base * MIN_SHARE_OF_SAFE_REPEATED;
  }
  // Card info blocks kept only because their wrappers are items of a linked-card grid do not count
  // here: the grid is the content when the region is, they must not turn a fragment into a region.
  const cardsLen = wrappedCardsLen(wrappedCards, region, stats, cleaned);
  if (mainLen - cardsLen < least && !proseAmidLinks(region, stats, mainLen, safeLen, safeLink)) {
    const notPanes = cleaned.filter((r) => !namesPosterPane(r.el));
    const withPanes = notPanes.length === cleaned.length ? mainLen : region.reduce((n, el) => n + (el.parent ? lenAfterRemoval(el, stats, notPanes) : 0), 0);
    if (withPanes - cardsLen < least) return undefined;
  }

  const kept = region.filter((el) => el.parent);
  // The disclosure toggles the prune took for controls head their answers again (an FAQ's questions);
  // not on a page that declares itself a product, whose accordions are the shop's panels (features,
  // shipping and returns) rather than an FAQ.
  if (!opts.product) restoreDisclosureToggles(pruned, kept);
  // Small blocks after the story inside the landmark it gave way to: appeals, CTA boxes, author cards.
  if (main && top === main && best !== main) dropTrailingAppendages(main, best, stats);
  blankAlts(kept);
  // Picture captions (credits, descriptions) are not the story's text; code and quote captions stay.
  if (opts.captions !== false) dropMediaCaptions(kept);
  dropRepeatedQuotes(kept);
  if (titleHeading) dropReplySubjects(kept, textOf(titleHeading), titleHeading);
  dropAccountPrompts(kept);
  // Edit notes under posts ("Last edited by …") and template placeholders no script filled.
  dropPostNotes(kept);
  // Per-post poster panes: their profile lines go, the poster's name stays (region-clean.ts).
  dropPosterPanes(kept);
  const copies: CopyRegistry = new Map();
  for (const el of kept) dropSiblingCopies(el, copies);
  dropRenditionPairs(kept);
  dropRepeatedControls(kept);
  // Flex rows of inline boxes read as separate words.
  separateFusedInlines(kept);
  const nodes: AnyNode[] = tap ? tap.after(tapState, kept) : kept;
  if (titleClone && titleHeading && !isInside(titleHeading, nodes)) nodes.unshift(titleClone);
  return { nodes };
}

/** A disclosure toggle's label holds at least this many words and at most DISCLOSURE_MAX_CHARS characters. */
const DISCLOSURE_MIN_WORDS = 3;
const DISCLOSURE_MAX_CHARS = 200;
/** A control's own action ("Show caption", "Read more", "Collapse content"), not a title of what it opens. */
const TOGGLE_VERB = /^(?:show|hide|expand|collapse|view|see|read|open|close|toggle|more|less|load)\b/i;
/** The panel after a disclosure toggle holds at least this much text (characters): an answer. */
const DISCLOSURE_PANEL_CHARS = 40;

/**
 * Puts back the disclosure toggles the prune removed as controls whose panel is still in the cleaned
 * region (`kept`): an FAQ's question in a `button`, a `role=button` or a block holding only such a
 * control (`div.faq-title > button`), marked as a disclosure by `aria-expanded` (on it or inside it),
 * goes back in front of the element that followed it (its answer) when that element is still in place
 * under the region and holds at least DISCLOSURE_PANEL_CHARS of text. The label must be a phrase
 * (DISCLOSURE_MIN_WORDS words up to DISCLOSURE_MAX_CHARS characters), not the control's own action
 * ("Show caption", "Read more": TOGGLE_VERB), and not the panel's first words already (an accordion
 * whose panel repeats its title). The region was chosen without the toggles, so they cannot move it.
 */
function restoreDisclosureToggles(pruned: Pruned[], kept: Element[]): void {
  if (!kept.length) return;
  const roots = new Set<ParentNode>(kept);
  for (const { el, parent, next } of pruned) {
    if (!next || next.parent !== parent || !isToggle(el) || !hasExpandedState(el)) continue;
    const label = normalizeSpace(textOf(el));
    if (label.length > DISCLOSURE_MAX_CHARS || label.split(' ').length < DISCLOSURE_MIN_WORDS || TOGGLE_VERB.test(label)) continue;
    const panel = normalizeSpace(textOf(next));
    if (panel.length < DISCLOSURE_PANEL_CHARS || panel.toLowerCase().startsWith(label.toLowerCase())) continue;
    if (!insideAny(parent as Element, roots)) continue;
    parent.children.splice(parent.children.indexOf(next), 0, el);
    relink(parent);
  }
}

/**
 * Whether `el` is a toggle: a `button`, a `role=button`, a `summary`, or a block whose whole text is
 * that of the first such control inside it.
 */
function isToggle(el: Element): boolean {
  if (isButtonLike(el)) return true;
  const text = normalizeSpace(textOf(el));
  for (const d of elements(el)) if (isButtonLike(d)) return normalizeSpace(textOf(d)) === text;
  return false;
}

/** Whether `el` or an element inside it carries `aria-expanded` (a disclosure's open/closed state). */
function hasExpandedState(el: Element): boolean {
  if (el.attribs['aria-expanded'] !== undefined) return true;
  for (const d of elements(el)) if (d.attribs['aria-expanded'] !== undefined) return true;
  return false;
}

/** Whether `el` is a control by its tag or role: `button`, `summary`, `role=button`. */
function isButtonLike(el: Element): boolean {
  return el.name === 'button' || el.name === 'summary' || el.attribs.role?.toLowerCase() === 'button';
}

/**
 * The safe cleanup used when no main region is found: drops only landmark chrome (nav, aside, page
 * header/footer, banner/contentinfo roles, dialogs) and junk-named blocks (cookie banners, share bars,
 * ads ...) that do not hold a large share of the page. Edits `root` in place.
 */
export function safeCleanup(root: ParentNode, opts: MainContentOptions = {}): void {
  if (opts.boilerplate?.size) removeFingerprinted(root, opts.boilerplate);
  pruneBoilerplate(root, computeStats(root), true, opts.product);
  blankAlts([root]);
  dropRepeatedQuotes([root]);
  dropPostNotes([root]);
  dropSiblingCopies(root as AnyNode);
  dropRenditionPairs([root]);
  dropRepeatedControls([root]);
  separateFusedInlines([root]);
}

/** A block after the best container inside the main landmark, under this share (0-1) of its text, is an appendage. */
const APPENDAGE_SHARE = 0.3;
/** ... when the best container holds at least this share (0-1) of the landmark's text (the landmark is mostly the story). */
const MIN_BEST_SHARE = 0.5;
/** More blocks than this after the best container's branch, at one level, are the landmark's own items, not appendages. */
const MAX_APPENDAGES = 6;
/** A list or table under this link density (0-1) after the story is a section of the landmark, not an appendage. */
const MAX_SECTION_LINK_DENSITY = 0.3;

/**
 * Drops the small blocks that follow the best-scoring container (`best`) inside the main landmark the
 * region gave way to (`main`), when `best` holds at least MIN_BEST_SHARE of the landmark's text: at
 * each level from `best` up to `main`, the element siblings after the branch holding `best` that hold
 * some text but under APPENDAGE_SHARE of `best`'s, are not of the branch's tag and class, repeat no
 * tag and class among their siblings, and hold no list or table of mostly plain text (a donation
 * appeal, a CTA or newsletter box, an author's card, a strip of other stories after the story; not the
 * landmark's next section of the same kind, a service's list of features or table of prices, a
 * thread's next post). A level with more than MAX_APPENDAGES blocks after the branch is a list of the
 * landmark's own items and is left alone. Lengths are the stats' (before the conditional cleaning).
 */
function dropTrailingAppendages(main: Element, best: Element, stats: StatsMap): void {
  const bestLen = stats.get(best)?.len ?? 0;
  if (bestLen < (stats.get(main)?.len ?? 0) * MIN_BEST_SHARE) return;
  const most = bestLen * APPENDAGE_SHARE;
  let branch: Element = best;
  for (let p = best.parent; p && isTag(p); p = p.parent) {
    const kids = p.children.filter(isTag);
    const after = kids.slice(kids.indexOf(branch) + 1);
    if (after.length <= MAX_APPENDAGES) {
      for (const k of after) {
        const ks = stats.get(k);
        const len = ks?.len ?? 0;
        if (!ks || len === 0 || len >= most) continue;
        // A list or table of plain text is the landmark's own section (features, prices); a list of
        // links (further reading, sources) is not.
        if ((ks.li > 0 || ks.table > 0) && ks.link < len * MAX_SECTION_LINK_DENSITY) continue;
        if (k.name === branch.name && (k.attribs.class ?? '') === (branch.attribs.class ?? '')) continue;
        if (likeSiblings(k).length > 1) continue;
        detach(k);
      }
    }
    if (p === main) break;
    branch = p;
  }
}

/**
 * The page's single main landmark (`main`, `role=main`, `itemprop=articleBody`), if there is exactly
 * one, among the elements `stats` holds (after pruning: those still under the root; the order does not
 * matter). Only a `main` element or one with a role or itemprop can be one.
 */
function mainLandmark(stats: StatsMap): Element | undefined {
  const mains: Element[] = [];
  for (const el of stats.keys()) {
    if ((el.name === 'main' || el.attribs.role !== undefined || el.attribs.itemprop !== undefined) && landmarkOf(el) === 'main') mains.push(el);
  }
  const outer = mains.filter((m) => !mains.some((o) => o !== m && isAncestor(o, m)));
  return outer.length === 1 ? outer[0] : undefined;
}

/**
 * Whether `top` is, or holds as most of its text, the page's one container named as an article body
 * (hints.ts). Names that recur (`post-body` on every post of a thread) name posts, not the article.
 */
function namedArticleBody(top: Element, stats: StatsMap): boolean {
  const min = (stats.get(top)?.len ?? 0) / 2;
  const body = namesArticleBody(top) ? top : firstNamedBody(top, min, stats);
  if (!body) return false;
  // Another named container of comparable size elsewhere: the name recurs per post.
  const size = (stats.get(body)?.len ?? 0) * RECURRING_BODY_SHARE;
  for (const el of stats.keys()) {
    if ((stats.get(el)?.len ?? 0) < size || !namesArticleBody(el) || el === body || isAncestor(el, body) || isAncestor(body, el)) continue;
    return false;
  }
  return true;
}

/**
 * The first element under `top` (pre-order) holding at least `min` characters and named as an article
 * body. An element under `min` has no descendant over it (lengths add up the tree), so its subtree is
 * skipped.
 */
function firstNamedBody(top: Element, min: number, stats: StatsMap): Element | undefined {
  const stack: AnyNode[] = [];
  for (let i = top.children.length - 1; i >= 0; i--) stack.push(top.children[i]);
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n) || (stats.get(n)?.len ?? 0) < min) continue;
    if (namesArticleBody(n)) return n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return undefined;
}

/**
 * Text (characters) of the wrapped card blocks (`cleanConditionally`'s `wrappedCards`, inner first)
 * still in the region after cleaning, each counted once (an outer block holding an inner one replaces
 * it), less what the cleaning removed inside them (`removed`, as in `lenAfterRemoval`).
 */
function wrappedCardsLen(cards: Element[], region: Element[], stats: StatsMap, removed: { el: Element; parent: ParentNode }[]): number {
  if (!cards.length) return 0;
  const roots = new Set(region);
  const outer = new Set<Element>();
  for (const c of cards) {
    if (!insideAny(c, roots)) continue;
    for (const o of outer) if (isAncestor(c, o)) outer.delete(o);
    outer.add(c);
  }
  let n = 0;
  for (const c of outer) n += stats.get(c)?.len ?? 0;
  if (!outer.size) return 0;
  const parentAt = new Map<ParentNode, ParentNode>();
  for (const { el, parent } of removed) parentAt.set(el, parent);
  for (const { el, parent } of removed) {
    let outermost = true;
    for (let p: ParentNode | null | undefined = parent; p; p = p.parent ?? parentAt.get(p)) {
      if (outer.has(p as Element)) {
        if (outermost) n -= stats.get(el)?.len ?? 0;
        break;
      }
      if (parentAt.has(p)) outermost = false;
    }
  }
  return n;
}

/**
 * Whether the region holds a sentence: a paragraph or a comma in one of its elements. A region of
 * labels and counts only (a facet list) is not a story above teasers of other stories.
 */
function holdsSentences(region: Element[], stats: StatsMap): boolean {
  return region.some((el) => {
    const s = stats.get(el);
    return !!s && (s.p > 0 || s.commas > 0);
  });
}

/** A teaser list at least this link-dense (0-1) has cards that are links whole: an item grid. */
const WRAPPED_CARDS_LINK_DENSITY = 0.9;

/**
 * Text in the outermost teaser lists (listing.ts) that lie outside the region, lists of cards wrapped
 * whole in links aside: those are a shop's or a directory's item grid, the page's content (teasers of
 * other stories lead with a linked headline and keep their summary outside the link).
 */
function teaserLenOutside(region: Element[], listings: ReadonlySet<Element>, stats: StatsMap): number {
  let n = 0;
  for (const l of listings) {
    if (!l.parent || region.some((r) => r === l || isAncestor(r, l) || isAncestor(l, r))) continue;
    const ls = stats.get(l);
    if (ls && ls.link >= ls.len * WRAPPED_CARDS_LINK_DENSITY) continue;
    let nested = false;
    for (let p: ParentNode | null = l.parent; p && !nested; p = p.parent) if (listings.has(p as Element)) nested = true;
    if (!nested) n += ls?.len ?? 0;
  }
  return n;
}

/**
 * Text length (characters, from `stats`) under `region` held by repeated short items: groups of at
 * least REPEATED_MIN_ITEMS element siblings of one tag and class, each under REPEATED_ITEM_MAX_LEN
 * characters (slides, cards, short paragraphs side by side), unless their name is a content one (hints.ts
 * `positive`: `answer`, `post`, `entry`: a thread's short posts); other elements are searched further
 * down. Removed elements are skipped.
 */
function repeatedShortLen(region: Element[], stats: StatsMap): number {
  let n = 0;
  const stack: Element[] = region.filter((el) => el.parent);
  while (stack.length) {
    const el = stack.pop()!;
    const groups = new Map<string, Element[]>();
    for (const k of el.children) {
      if (!isTag(k)) continue;
      const key = `${k.name}.${k.attribs.class ?? ''}`;
      const g = groups.get(key);
      if (g) g.push(k);
      else groups.set(key, [k]);
    }
    for (const g of groups.values()) {
      if (g.length >= REPEATED_MIN_ITEMS && !hintsOf(g[0]).positive && g.every((k) => (stats.get(k)?.len ?? 0) < REPEATED_ITEM_MAX_LEN)) {
        for (const k of g) n += stats.get(k)?.len ?? 0;
      } else {
        stack.push(...g);
      }
    }
  }
  return n;
}

/**
 * Whether the region holds the page's prose and what the safe cleanup keeps beyond it is link lists
 * that no landmark or name marks (a tag cloud, a monthly archive, a mega-menu): at least 90% of that
 * text is link text, and the region (`mainLen` characters after cleaning) holds at least 1,000
 * characters and 40% of the safe text outside links (its own link text taken as of before cleaning).
 * Such a region is no fragment however long the link lists are.
 */
function proseAmidLinks(region: Element[], stats: StatsMap, mainLen: number, safeLen: number, safeLink: number): boolean {
  let regionLen = 0;
  let regionLink = 0;
  for (const el of region) {
    const s = stats.get(el);
    regionLen += s?.len ?? 0;
    regionLink += s?.link ?? 0;
  }
  const prose = mainLen - regionLink;
  return safeLink - regionLink >= (safeLen - regionLen) * LINK_LISTS_SHARE && prose >= MIN_PROSE_REGION && prose >= (safeLen - safeLink) * MIN_SHARE_OF_SAFE;
}

/**
 * Text length (`len`, default) or link text length (`link`) under `root`, in characters: computeStats
 * does not measure a root that is not an element, so its children are summed.
 */
function rootLen(root: ParentNode, stats: StatsMap, measure: 'len' | 'link' = 'len'): number {
  const own = isTag(root as Element) ? stats.get(root as Element) : undefined;
  if (own) return own[measure];
  let n = 0;
  for (const c of root.children) if (isTag(c)) n += stats.get(c)?.[measure] ?? 0;
  return n;
}

/**
 * Text length (`len`) and link text length (`link`) the (safe) prune would remove, without removing
 * anything; the outermost blocks it would remove are added to `dropped` when given.
 */
function boilerplateLen(root: ParentNode, stats: StatsMap, total: number, safeOnly: boolean, dropped?: Set<Element>): { len: number; link: number } {
  let len = 0;
  let link = 0;
  const stack = [...root.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (boilerplateReason(n, stats, total, safeOnly)) {
      const s = stats.get(n);
      len += s?.len ?? 0;
      link += s?.link ?? 0;
      dropped?.add(n);
    } else if (descendable(n)) for (const k of n.children) stack.push(k);
  }
  return { len, link };
}

/**
 * `textLength(top)` after `removed` were taken out under it, from the stats (exact for the tree as
 * pruning left it) instead of a scan of all its text: its length less that of each removed element
 * not inside another removed one (removals come descendants first; a removed element's parent
 * pointer is gone, so the parent at removal stands in for it). The page root has no stats of its own:
 * its length is that of its children still in place (and its own text), less what was removed under
 * them.
 */
function lenAfterRemoval(top: Element, stats: StatsMap, removed: { el: Element; parent: ParentNode }[]): number {
  let len = stats.get(top)?.len;
  const hasOwn = len !== undefined;
  if (len === undefined) {
    len = 0;
    for (const c of top.children) {
      if (isTag(c)) {
        const cs = stats.get(c);
        if (!cs) return textLength(top);
        len += cs.len;
      } else if (c.type === 'text') len += textLength(c);
    }
  }
  if (!removed.length) return len;
  const parentAt = new Map<ParentNode, ParentNode>();
  for (const { el, parent } of removed) parentAt.set(el, parent);
  for (const { el, parent } of removed) {
    // Without stats of its own, the top's length counts only its children still in place.
    if (!hasOwn && parent === top) continue;
    let outermost = true;
    let under = false;
    for (let p: ParentNode | null | undefined = parent; p; p = p.parent ?? parentAt.get(p)) {
      if (p === top) {
        under = true;
        break;
      }
      if (parentAt.has(p)) outermost = false;
    }
    if (under && outermost) len -= stats.get(el)?.len ?? 0;
  }
  return len;
}

/** Whether `el` or one of its ancestors is in `set`. */
function insideAny(el: Element, set: ReadonlySet<unknown>): boolean {
  if (!set.size) return false;
  for (let p: ParentNode | null = el; p; p = p.parent) if (set.has(p)) return true;
  return false;
}

function isInside(el: Element, nodes: AnyNode[]): boolean {
  return insideAny(el, new Set(nodes));
}


