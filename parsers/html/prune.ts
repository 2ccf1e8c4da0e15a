/**
 * Boilerplate removal before scoring (main-content extractor). `pruneBoilerplate` drops landmarks that
 * are site chrome (nav, aside, banner/contentinfo roles, header/footer outside an article), dialogs,
 * elements whose class/id names say share bar, comments, related, ads, cookie or newsletter box, small
 * bylines and tag lists, small forms, buttons, icons and blocks whose whole text is a boilerplate label
 * ("Advertisement"). An element holding a large share of the page text, or the page's main/article
 * landmark, is never pruned here: the scorer decides.
 */
import { detach, elementList, elements, HEADING_TAGS, INLINE_TAGS, isAncestor, isTag, normalizeSpace, relink, Text, textOf, type Element, type ParentNode } from './dom.ts';
import { classifyName, hintsOf, isAuthorHeading, namesBoilerplateVariant, isJunkPhrase, isRecommendationHeading, isReviewHeading, landmarkOf, neutralizeHints } from './hints.ts';
import { softProse, textLength, type StatsMap } from './stats.ts';

/** Content elements never pruned for their class names (`h2.anchorWithStickyNavbar` is a heading). */
const HINT_EXEMPT = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'pre', 'blockquote']);

/**
 * A block with buttons is a form or control bar when it is a `form` or has at most this much text
 * outside links (a share bar); with more (a product card: name, details, price) it is content.
 */
const MAX_CONTROL_TEXT = 40;
/**
 * A `form method=post` holding less text than this (characters) is a reply box, an answer box or a
 * sign-in, not content; a page wrapped whole in one form (ASP.NET) holds far more.
 */
const MAX_POST_FORM_TEXT = 400;

/** Largest share of the page text a hinted element may hold and still be pruned before scoring. */
const MAX_PRUNE_SHARE = 0.3;
/** Largest share for landmark chrome (nav, aside, page header/footer). */
const MAX_LANDMARK_SHARE = 0.6;

function insideContentLandmark(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) {
    if (isTag(p)) {
      const m = landmarkOf(p);
      if (m === 'main' || m === 'article') return true;
    }
  }
  return false;
}

/** Whether the document has a main landmark outside `el` (memoized per document root). */
function mainElsewhere(el: Element): boolean {
  let top: Element | ParentNode = el;
  while (top.parent) top = top.parent;
  let mains = mainCache.get(top);
  if (!mains) {
    mains = [];
    for (const d of elementList(top as ParentNode)) if (landmarkOf(d) === 'main') mains.push(d);
    mainCache.set(top, mains);
  }
  return mains.some((m) => m !== el && !isAncestor(el, m));
}

const mainCache = new WeakMap<object, Element[]>();


function containsContentLandmark(el: Element): boolean {
  for (const d of elements(el)) {
    const m = landmarkOf(d);
    if (m === 'main' || m === 'article') return true;
  }
  return false;
}

/**
 * Whether `el` is the header block of the page's content: named as a BEM element `header` only
 * (`layout__header`: the title and intro of a reference page) and the first text of a `main` or
 * `article` landmark (a dialog's or an accordion's `__header` further down is not).
 */
export function isContentHeader(el: Element, stats: StatsMap): boolean {
  if (!(stats.get(el)?.headings ?? 0) || !namesHeaderElementOnly(el)) return false;
  for (let p = el.parent; p; p = p.parent) {
    if (!isTag(p)) continue;
    const m = landmarkOf(p);
    if (m === 'main' || m === 'article') return textBefore(p, el, stats) === 0;
  }
  return false;
}

/**
 * Whether every chrome-classified class name of `el` is a BEM element named `header`
 * (`layout__header`, `module__header`) whose block part holds no chrome or junk word.
 */
function namesHeaderElementOnly(el: Element): boolean {
  const cls = el.attribs.class;
  if (!cls || el.attribs.id && classifyName(el.attribs.id) === 'chrome') return false;
  let any = false;
  for (const name of cls.split(/\s+/)) {
    if (!name) continue;
    const kind = classifyName(name);
    if (kind !== 'chrome' && kind !== 'soft' && kind !== 'junk') continue;
    const at = name.toLowerCase().lastIndexOf('__header');
    if (at <= 0 || at + 8 !== name.length) return false;
    const block = classifyName(name.slice(0, at));
    if (block === 'chrome' || block === 'junk' || block === 'soft') return false;
    any = true;
  }
  return any;
}

/** Why an element is boilerplate before any scoring, or undefined. `safeOnly` limits to landmarks. */
export function boilerplateReason(el: Element, stats: StatsMap, total: number, safeOnly: boolean): string | undefined {
  const s = stats.get(el);
  const share = s && total ? s.len / total : 0;
  const mark = landmarkOf(el);
  // Landmark chrome holding most of the text is kept (a page that is only a link list), unless the page
  // marks its main content elsewhere.
  const bigShare = share >= MAX_LANDMARK_SHARE && !mainElsewhere(el);
  // Dialogs (cookie consent centres, modals) overlay the page: never its content, however long.
  if (mark === 'junk') return containsContentLandmark(el) ? undefined : 'landmark';
  if (mark === 'chrome') return bigShare ? undefined : 'landmark';
  if ((el.name === 'header' || el.name === 'footer') && !insideContentLandmark(el)) {
    return !bigShare && !containsContentLandmark(el) ? 'landmark' : undefined;
  }
  if (HINT_EXEMPT.has(el.name)) return undefined;
  if (el.name === 'a' && isSkipLink(el, s?.len ?? 0)) return 'skiplink';
  const h = hintsOf(el);
  // A chrome-named block holding a heading inside a link is the header of a card wrapped whole in the
  // link (`new-listing__header`): a link cannot hold the page's navigation.
  if (h.chrome && !h.junk && s && s.headings > 0 && s.link < s.len / 2 && insideLink(el)) return undefined;
  if (isMenuItemList(el)) return 'menu';
  if (safeOnly) return (h.junk || (h.chrome && !h.positive)) && share < MAX_PRUNE_SHARE && !containsContentLandmark(el) ? 'hint' : undefined;
  if (mark === 'main' || mark === 'article') return undefined;
  if (h.chrome && !h.junk && isContentHeader(el, stats)) return undefined;
  if ((h.junk || h.chrome) && !h.positive && share < MAX_PRUNE_SHARE && !containsContentLandmark(el) && !(s && softProse(el, s))) {
    // A name that is chrome only by soft words (`promo`, `cta`) prunes link lists and short teasers,
    // not the prose sections of a service page.
    return h.junk ? 'junk' : 'chrome';
  }
  if (h.junk && share < 0.1 && !containsContentLandmark(el)) return 'junk';
  if (h.meta && !h.positive && s && s.len < 300 && s.headings === 0) return 'meta';
  if (s && s.input > 0 && (el.name === 'form' || s.len - s.link <= MAX_CONTROL_TEXT) && s.len < 400 && s.input > Math.floor(s.p / 3) && s.pre === 0 && s.table === 0 && s.headings <= 1) return 'form';
  // A short form that posts (a reply or answer box, a sign-in): its fields are gone with the basic
  // cleanup, its remaining text is the box's chrome ("Your Answer", "By clicking Post Your Answer ...").
  if (el.name === 'form' && s && s.len < MAX_POST_FORM_TEXT && s.pre === 0 && s.table === 0 && el.attribs.method?.toLowerCase() === 'post') return 'form';
  if (el.name === 'button') return 'button';
  if (el.name === 'img' && isIcon(el)) return 'icon';
  if (s && s.len <= 60 && s.img === 0 && s.pre === 0 && s.table === 0 && !HEADING_TAGS.has(el.name) && standalone(el, s.len, stats)) {
    if (isJunkPhrase(normalizeSpace(textOf(el)))) return 'phrase';
  }
  return undefined;
}

/** ARIA roles of the entries of a menu or a list box (a dropdown's choices). */
const MENU_ITEM_ROLES = new Set(['menuitem', 'menuitemradio', 'menuitemcheckbox', 'option']);
/** Least number of entries of a menu list, and least share (0-1) of its child elements they make up. */
const MIN_MENU_ITEMS = 3;
const MENU_ITEM_SHARE = 0.9;

/**
 * Whether `el` is the list of a menu or list box: at least MIN_MENU_ITEMS child elements, at least
 * MENU_ITEM_SHARE of them marked as menu entries or options (`role=menuitemradio`: a dropdown's
 * choices of language or sort order, rendered in the page but shown only when opened), however
 * large (the landmark roles `menu`/`listbox` are often left off the list itself). Pruned by the safe
 * cleanup too.
 */
function isMenuItemList(el: Element): boolean {
  let n = 0;
  let items = 0;
  for (const c of el.children) {
    if (!isTag(c)) continue;
    n++;
    const role = c.attribs.role;
    if (role && MENU_ITEM_ROLES.has(role.toLowerCase())) items++;
  }
  return items >= MIN_MENU_ITEMS && items >= n * MENU_ITEM_SHARE;
}

/** The text of a skip link: it moves the keyboard focus within the page ("Skip to main content", "Jump to filters"). */
const SKIP_TEXT = /^(?:skip|jump|go)(?: straight)? to\b|^skip (?:navigation|nav|links?)$/i;

/**
 * Whether link `el` (text length `len`) is a skip link: a short link to a place on the same page
 * (`#main-content`, absolutized as `https://shop.example/p#main-content`) whose text says where it
 * skips to. Grouped with others ("Skip to content", "Go to Product Search", "Go to Footer") they form
 * no standalone label, so the junk phrases miss them.
 */
function isSkipLink(el: Element, len: number): boolean {
  if (len > 60 || !el.attribs.href?.includes('#')) return false;
  return SKIP_TEXT.test(normalizeSpace(textOf(el)));
}

/** Levels above an element searched for the link of its card. */
const CARD_LINK_LEVELS = 4;

/** Whether one of the nearest CARD_LINK_LEVELS ancestors of `el` is a link. */
function insideLink(el: Element): boolean {
  let p = el.parent;
  for (let i = 0; i < CARD_LINK_LEVELS && p && isTag(p); i++, p = p.parent) if (p.name === 'a') return true;
  return false;
}

/** Images declared at most 64x64 px: avatars, icons, badges (emoji images are turned into their text). */
function isIcon(el: Element): boolean {
  const w = Number(el.attribs.width);
  const h = Number(el.attribs.height);
  if (!(w > 0 && w <= 64 && h > 0 && h <= 64)) return false;
  const alt = el.attribs.alt ?? '';
  if (alt && [...alt].length <= 2 && el.parent) {
    const text = new Text(alt);
    const kids = el.parent.children;
    const i = kids.indexOf(el);
    text.parent = el.parent;
    kids.splice(i + 1, 0, text);
    relink(el.parent);
  }
  return true;
}

/** Whether an inline element is the only text of its parent block (a label, not a word in a sentence). */
function standalone(el: Element, len: number, stats: StatsMap): boolean {
  if (!INLINE_TAGS.has(el.name)) return true;
  const p = el.parent;
  return !!p && isTag(p) && (stats.get(p)?.len ?? 0) === len;
}

const NO_DESCEND = new Set(['pre', 'code', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'math']);

/** Whether pruning looks inside this element (not inside paragraphs, headings and code). */
export function descendable(el: Element): boolean {
  return !NO_DESCEND.has(el.name);
}

/**
 * Removes pre-scoring boilerplate under `root` (outermost first).
 * @param safeOnly only landmarks and junk-hinted blocks (the fallback cleanup)
 * @param product the page declares itself a product: blocks labelled as customer reviews go too
 * @returns the removed elements, each with the parent it had (for stats.ts `updateAfterRemoval`) and
 *   the element sibling after it
 */
export function pruneBoilerplate(root: ParentNode, stats: StatsMap, safeOnly = false, product = false): Pruned[] {
  const rootStats = isTag(root as Element) ? stats.get(root as Element) : undefined;
  const whole = rootStats?.len ?? [...stats.values()].reduce((m, s) => Math.max(m, s.len), 0);
  // Dialogs overlay the page: a consent centre's text must not make the page's own blocks look small.
  const total = Math.max(whole - overlayLen(root, stats), whole * MIN_PAGE_SHARE);
  const spared: Element[] = [];
  let remove = collect(root, stats, total, safeOnly, spared);
  // Class words that turn out to be the page's layout stop counting, and the pruning runs again.
  const layout = new Set<string>();
  for (let round = 0; round < MAX_LAYOUT_ROUNDS; round++) {
    const added = addLayoutNames(root, remove, stats, total, layout, spared);
    // Blocks nested in layout blocks (replies to replies) come up in later rounds with names known already.
    let neutralized = false;
    for (const el of remove) {
      if (!onlyLayoutWords(el, layout)) continue;
      neutralizeHints(el);
      neutralized = true;
    }
    if (!added && !neutralized) break;
    spared.length = 0;
    remove = collect(root, stats, total, safeOnly, spared);
  }
  remove = withRecommendations(remove, stats, total, product);
  const removed = remove.map((el) => ({ el, parent: el.parent!, next: nextElement(el) }));
  for (const el of remove) detach(el);
  return removed;
}

/** An element the prune removed, the parent it had and the element sibling that followed it. */
export interface Pruned {
  el: Element;
  parent: ParentNode;
  next?: Element;
}

/** The element sibling after `el`, if any. */
function nextElement(el: Element): Element | undefined {
  for (let n = el.next; n; n = n.next) if (isTag(n)) return n;
  return undefined;
}

/** Rounds of layout-name discovery, each one level deeper into nested layout blocks (threads of replies). */
const MAX_LAYOUT_ROUNDS = 8;

/** The page text net of dialogs is taken as at least this share of the whole. */
const MIN_PAGE_SHARE = 0.1;

/** Text in dialogs (junk landmarks holding no main or article landmark): overlays, not page text. */
function overlayLen(root: ParentNode, stats: StatsMap): number {
  let n = 0;
  const stack = [...root.children];
  while (stack.length) {
    const c = stack.pop()!;
    if (!isTag(c)) continue;
    if (landmarkOf(c) === 'junk' && !containsContentLandmark(c)) n += stats.get(c)?.len ?? 0;
    else if (descendable(c)) for (const k of c.children) stack.push(k);
  }
  return n;
}

/** Largest share of the page text a block labelled as recommendations may hold and be pruned. */
const MAX_RECOMMENDATION_SHARE = 0.3;
/** Largest share for a block labelled as customer reviews (on a product page they often outweigh the description). */
const MAX_REVIEW_SHARE = 0.5;
/** Text (characters) a review block may hold before its heading: a rating summary ("4.6 out of 5, 98 ratings"). */
const REVIEW_LEAD = 200;

/**
 * Adds to `remove` the blocks that a recommendation heading ("You may also like", "People who viewed
 * this item also viewed", hints.ts) or an author-box heading ("About the author", "Written by Jane Doe")
 * labels: the largest ancestor of the heading whose text starts with it, holding less than 30% of the
 * page and no main/article landmark (h2-h6; an h1 titles the page). A paragraph that opens its block
 * as a heading would (`isLabelParagraph`) labels a recommendation block too ("Explore related
 * questions" above a thread's tag links).
 * Blocks already inside a removed one are skipped; removed blocks inside a new one are dropped from
 * the list. On a page that declares itself a product (`product`), review headings ("Customer reviews",
 * "8 Reviews", hints.ts `isReviewHeading`; the heading's whole text or its first text, as in
 * `Reviews<span>159 reviews, average 4.4</span>`) label such blocks too: shoppers' reviews and
 * testimonials are not the product's description. On any page, headings that name customers' or users'
 * reviews outright (`SHOPPER_REVIEWS`) label such blocks. Review blocks may hold up to half the page and
 * open with a short rating summary before their heading.
 */
function withRecommendations(remove: Element[], stats: StatsMap, total: number, product: boolean): Element[] {
  const sections: Element[] = [];
  // keys() and get(), not the [el, stats] generator: the same order, without a generator step per element.
  for (const el of stats.keys()) {
    // An h1 is the page's own title (a category page may be called "Related Products").
    const heading = HEADING_TAGS.has(el.name);
    if (el.name === 'h1' || stats.get(el)!.len > 80 || !el.parent || (!heading && !isLabelParagraph(el))) continue;
    const label = normalizeSpace(textOf(el));
    // An author box ("About the author") goes like a recommendation block: the story ends before it.
    const recommendation = heading ? isRecommendationHeading(label) || isAuthorHeading(label) : isRecommendationHeading(label);
    if (!recommendation && !(heading && isReviewLabel(el, label, product ? isReviewHeading : isShopperReviewHeading))) continue;
    const cap = total * (recommendation ? MAX_RECOMMENDATION_SHARE : MAX_REVIEW_SHARE);
    let block = el;
    for (let p: ParentNode | null = el.parent; p && isTag(p) && p.name !== 'body'; p = p.parent) {
      const ps = stats.get(p);
      if (!ps || ps.len > cap || landmarkOf(p) === 'main' || landmarkOf(p) === 'article') break;
      if (recommendation ? firstText(p) !== firstText(el) : textBefore(p, el, stats) > REVIEW_LEAD) break;
      block = p;
    }
    sections.push(block);
  }
  if (!sections.length) return remove;
  const inside = (el: Element, of: Element[]) => of.some((o) => o === el || isAncestor(o, el));
  const added = sections.filter((b, i) => !inside(b, remove) && !sections.some((o, j) => j !== i && isAncestor(o, b)));
  return [...remove.filter((el) => !inside(el, added)), ...new Set(added)];
}

/**
 * Headings that name shoppers' reviews outright ("Customer reviews", "User reviews for <item>"): they
 * label review blocks on any page, not only on pages declaring a product (a store page marked up with
 * microdata only); a bare "Reviews" (critics' reviews quoted by a store page, a service's testimonials)
 * counts only on declared products.
 */
const SHOPPER_REVIEWS = /^(?:customer|user|guest|verified) (?:reviews?|ratings? (?:&|and) reviews?)(?: (?:for|of)\b.*)?$/i;
const isShopperReviewHeading = (text: string) => text.length <= 80 && SHOPPER_REVIEWS.test(text);

/**
 * Whether `el` is a paragraph used as a heading: a `p` holding only text and inline elements, the first
 * element of its parent ("Explore related questions" styled bold above a tag list).
 */
function isLabelParagraph(el: Element): boolean {
  if (el.name !== 'p') return false;
  const parent = el.parent;
  if (!parent || !isTag(parent)) return false;
  // The parent's first element or non-blank text: a scan that stops there, whatever the parent holds.
  for (const c of parent.children) if (isTag(c) || (c.type === 'text' && (c as Text).data.trim())) {
    if (c !== el) return false;
    break;
  }
  return el.children.every((c) => !isTag(c) || INLINE_TAGS.has(c.name));
}

/** Whether heading `el` (text `label`) labels customer reviews, by its whole text or its first text. */
function isReviewLabel(el: Element, label: string, test: (text: string) => boolean): boolean {
  if (test(label)) return true;
  const first = firstText(el) as Text | undefined;
  return !!first && first.data.length < label.length && test(normalizeSpace(first.data));
}

/** Text length under `top` before `el` (a descendant), from the stats of the siblings on the way up. */
function textBefore(top: Element, el: Element, stats: StatsMap): number {
  let n = 0;
  for (let c: Element = el; c !== top && c.parent; c = c.parent as Element) {
    for (let s = c.prev; s; s = s.prev) n += isTag(s) ? (stats.get(s)?.len ?? 0) : s.type === 'text' ? textLength(s) : 0;
  }
  return n;
}

/** The first non-blank text node under `el`, or undefined. */
function firstText(el: Element): unknown {
  const stack = [...el.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') {
      if ((n as Text).data.trim()) return n;
    } else if (isTag(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return undefined;
}

function collect(root: ParentNode, stats: StatsMap, total: number, safeOnly: boolean, spared?: Element[]): Element[] {
  const remove: Element[] = [];
  const stack = [...root.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (boilerplateReason(n, stats, total, safeOnly)) {
      remove.push(n);
      continue;
    }
    // Soft-named blocks kept as prose (the longer answers of an accordion whose shorter ones are
    // pruned) are blocks of their name too: addLayoutNames counts them (outermost ones only).
    if (spared && hintsOf(n).soft) {
      const s = stats.get(n);
      if (s && softProse(n, s) && !spared.some((o) => isAncestor(o, n))) spared.push(n);
    }
    if (!descendable(n)) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return remove;
}

/** Share of the page text above which a boilerplate-sounding class name is a layout class. */
const LAYOUT_SHARE = 0.3;

/**
 * A poster's signature under each post (`signature`, `post-signature`) is the thread's chrome however
 * much text the signatures hold together: on a thread of one-line posts they outweigh the posts.
 */
const NEVER_LAYOUT = /(?:^|[^a-z])signatures?(?:[^a-z]|$)/i;

/** Names of reader replies (comments, responses): layout only on a page made of them (a thread). */
const REPLIES = /comment|repl(y|ies)|respon|disqus/i;

/**
 * The class names of an element that sound like boilerplate, digit runs masked (`comment-0_wrap`), and
 * its id when numbered: a numbered id (`comment-4398546_wrap`) names one item of a kind, like a class.
 */
function boilerplateNames(el: Element): string[] {
  const out: string[] = [];
  const names = (el.attribs.class ?? '').split(/\s+/);
  const id = el.attribs.id;
  if (id && id.length < 80 && /\d/.test(id)) names.push(id);
  for (const name of names) {
    if (!name || name.length >= 80) continue;
    const kind = classifyName(name);
    // A BEM modifier naming boilerplate (`cmp-richtext--disclaimer`) marks blocks the site set apart
    // as that kind, however much text they hold together: never a layout name.
    if ((kind === 'junk' || kind === 'chrome') && namesBoilerplateVariant(name)) continue;
    if (kind === 'junk' || kind === 'chrome' || kind === 'soft') out.push(name.replace(/\d+/g, '0'));
  }
  return out;
}

/**
 * Finds class names that are the page's layout, not boilerplate: names of pruned blocks (and of
 * soft-named blocks spared as prose, `spared`) that together hold a large share (30%) of the page
 * text, such as a page builder's blocks (`elementor-widget-wrap`), the posts of a forum thread
 * (`ipsComment`) or the answers of an accordion (`accordion-item__dropdown`). Adds them to `layout`;
 * true when it found new ones.
 */
function addLayoutNames(root: ParentNode, remove: Element[], stats: StatsMap, total: number, layout: Set<string>, spared: Element[] = []): boolean {
  const byName = new Map<string, { sum: number; max: number; pruned: number; prunedMax: number }>();
  let removed = 0;
  for (const el of remove) removed += stats.get(el)?.len ?? 0;
  const sparedSet = new Set(spared);
  for (const el of spared.length ? [...remove, ...spared] : remove) {
    const len = stats.get(el)?.len ?? 0;
    if (landmarkOf(el) || (!el.attribs.class && !el.attribs.id)) continue;
    const isPruned = !sparedSet.has(el);
    for (const name of boilerplateNames(el)) {
      const g = byName.get(name) ?? { sum: 0, max: 0, pruned: 0, prunedMax: 0 };
      g.sum += len;
      g.max = Math.max(g.max, len);
      if (isPruned) {
        g.pruned += len;
        g.prunedMax = Math.max(g.prunedMax, len);
      }
      byName.set(name, g);
    }
  }
  let added = false;
  const kept = total - removed;
  for (const [name, g] of byName) {
    if (layout.has(name) || NEVER_LAYOUT.test(name)) continue;
    // With the spared blocks, the name must be a repeated component (no block holds half of its
    // text): one long soft-named section (an article body named `above-cta`) is not the layout.
    const bySpared = g.pruned < total * LAYOUT_SHARE && g.sum >= total * LAYOUT_SHARE && g.max < g.sum * MAX_LAYOUT_BLOCK_SHARE;
    if (g.pruned < total * LAYOUT_SHARE && !bySpared) continue;
    // Replies are the page only where nothing else on it outweighs one of them (a forum thread whose
    // opening post is a reply-like block too), not under an article or a question.
    // Replies of the name that escaped the pruning (one too long to prune: over 30% of the page) are
    // part of the thread, not the text that outweighs it (a short post above its comments).
    if (REPLIES.test(name)) {
      const reply = bySpared ? g.max : g.prunedMax;
      if (kept >= reply && kept - keptNamed(root, name, remove, stats, total * LAYOUT_SHARE) >= reply) continue;
    }
    layout.add(name);
    added = true;
  }
  return added;
}

/**
 * Text length of the outermost blocks under `root` named `name` (boilerplateNames), outside the
 * `remove` blocks, that hold at least `min` characters: the replies too long to be pruned.
 */
function keptNamed(root: ParentNode, name: string, remove: Element[], stats: StatsMap, min: number): number {
  const removed = new Set(remove);
  let n = 0;
  const stack = [...root.children];
  while (stack.length) {
    const c = stack.pop()!;
    if (!isTag(c) || removed.has(c)) continue;
    if ((c.attribs.class || c.attribs.id) && boilerplateNames(c).includes(name)) {
      const len = stats.get(c)?.len ?? 0;
      if (len >= min) n += len;
    } else if (descendable(c)) for (const k of c.children) stack.push(k);
  }
  return n;
}

/** Largest share of a name's text one block may hold for spared blocks to make the name layout. */
const MAX_LAYOUT_BLOCK_SHARE = 0.5;

/** Whether every boilerplate-sounding class name of `el` is a layout name (ids and landmarks aside). */
function onlyLayoutWords(el: Element, layout: Set<string>): boolean {
  if (landmarkOf(el)) return false;
  const names = boilerplateNames(el);
  return names.length > 0 && names.every((n) => layout.has(n));
}
