/**
 * Conditional cleaning of the chosen main-content region, after Readability's `_cleanConditionally`:
 * drops link lists, leftover widgets, forms, image clusters and near-empty blocks, and "Read more:
 * <link>" promo paragraphs, while never removing headings, code, data tables or the bulk of the text.
 */
import { detach as detachNode, elementList, elements, HEADING_TAGS, inCode, isAncestor, isSpaceCode, isTag, likeSiblings, nonSpaceLength, normalizeSpace, postOrder, relink, sharedWordCount, textOf, type AnyNode, type Element, type ParentNode, Text } from './dom.ts';
import { classWeight } from './scoring.ts';
import { classTokens, namesGenericMetaOnly } from './hints.ts';
import { linkDensity, softProse, type Stats, type StatsMap } from './stats.ts';
import { isContentHeader } from './prune.ts';

/** Blocks holding more than this share of the region are kept by the conditional cleaning whatever they are. */
const MAJOR_SHARE = 0.4;
/** The class weight of a meta name (scoring.ts): major blocks named lower (junk or chrome words) lend their name. */
const META_WEIGHT = -10;

const CONDITIONAL_TAGS = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'header', 'footer', 'aside', 'figure', 'center', 'nav', 'menu']);

/**
 * Readability-style conditional cleaning of the chosen region (in place).
 * @param regionLen text length of the whole region (elements holding > 40% of it are kept)
 * @param scores paragraph scores from scoring.ts
 * @param wrappedCards if given, receives the blocks kept only because they are a linked card's info
 *   block inside wrappers of a card grid item (`wrappedLinkedCard`), in visit order (inner first)
 * @returns the removed elements in removal order (descendants before ancestors), each with its parent
 *   at removal
 */
export function cleanConditionally(region: ParentNode[], stats: StatsMap, scores: Map<Element, number>, regionLen: number, wrappedCards?: Element[]): { el: Element; parent: ParentNode }[] {
  const removed: { el: Element; parent: ParentNode }[] = [];
  const detach = (el: Element) => {
    removed.push({ el, parent: el.parent! });
    detachNode(el);
  };
  // Text of the grid cards the link rules kept, per block holding them (up to the region's top).
  const cards: KeptCards = { text: new Map(), top: undefined };
  for (const top of region) {
    cards.top = top;
    const all = isTag(top as Element) ? [...postOrder(top), top as Element] : postOrder(top);
    // Tags and class attributes of the blocks holding most of the region (kept whatever their names
    // say): a block of the same tag and class is another of them (the second post of a thread whose posts are all
    // `comment`-named), and its name does not count against it.
    let major: Set<string> | undefined;
    for (const el of all) {
      const cls = el.attribs.class;
      if (cls && (stats.get(el)?.len ?? 0) > regionLen * MAJOR_SHARE && classWeight(el) < META_WEIGHT) (major ??= new Set()).add(`${el.name}.${cls}`);
    }
    for (const el of all) {
      if (!el.parent) continue;
      if (el.name === 'p' && isInlinePromo(el, stats)) {
        detach(el);
        continue;
      }
      if (!CONDITIONAL_TAGS.has(el.name)) continue;
      const s = stats.get(el);
      if (!s) continue;
      if (s.len > regionLen * MAJOR_SHARE) continue;
      const drop = shouldDrop(el, s, stats, scores, regionLen, cards, !!major && major.has(`${el.name}.${el.attribs.class ?? ''}`));
      if (drop === true) detach(el);
      else if (drop === WRAPPED_CARD) wrappedCards?.push(el);
    }
  }
  return removed;
}

/** What `shouldDrop` answers for a block kept only by the wrapped linked-card exemption. */
const WRAPPED_CARD = 'wrapped-card';

/** A quote's attribution holds at most this much text (characters): a name and "said:". */
const MAX_ATTRIBUTION_CHARS = 100;
const ENDS_WITH_COLON = /:\s*$/;

/**
 * Whether `el` is the attribution line of a block quote: the quote's first element, short, ending in a
 * colon ("Name said:", "Name wrote:"), with the quoted text after it. A forum's quote header is a link
 * to the quoted post, a link-only block the link rules below would drop; the post's text introduces
 * the quote with it.
 */
function isQuoteAttribution(el: Element): boolean {
  const quote = el.parent;
  if (!quote || !isTag(quote as AnyNode) || (quote as Element).name !== 'blockquote' || elementList(quote)[0] !== el) return false;
  const own = normalizeSpace(textOf(el));
  return own.length <= MAX_ATTRIBUTION_CHARS && ENDS_WITH_COLON.test(own) && normalizeSpace(textOf(quote)).length > own.length;
}

/**
 * The grid cards the link rules of the conditional cleaning kept (`shouldDrop`): per block above
 * them, up to the region's `top`, the text (characters) of those cards, each card counted once.
 */
interface KeptCards {
  text: Map<Element, number>;
  top: ParentNode | undefined;
}

/** A block at least this share (0-1) of whose text is grid cards kept by the link rules is their grid. */
const CARD_HOLDER_SHARE = 0.5;

/**
 * Records `el` (`len` characters) as a grid card the link rules kept: its text, less what cards
 * under it already counted, is added to every block above it up to the region's top.
 */
function keepCard(el: Element, len: number, cards: KeptCards): void {
  const add = len - (cards.text.get(el) ?? 0);
  if (add <= 0) return;
  for (let p = el.parent; p && isTag(p as Element); p = p.parent) {
    cards.text.set(p as Element, (cards.text.get(p as Element) ?? 0) + add);
    if (p === cards.top) break;
  }
}

function shouldDrop(el: Element, s: Stats, stats: StatsMap, scores: Map<Element, number>, regionLen: number, cards: KeptCards, namedLikeMajor = false): boolean | typeof WRAPPED_CARD {
  if (isQuoteAttribution(el)) return false;
  // A block of prose under a soft name (`promo`, `cta`: hints.ts), or named as the region's major
  // blocks, is not penalized for its name.
  // So is the header block opening the page's `main` (prune.ts `isContentHeader`).
  const named = classWeight(el);
  const weight = named < 0 && (softProse(el, s) || namedLikeMajor || isContentHeader(el, stats)) ? 0 : named;
  const ld = linkDensity(s);
  const core = innermost(el, stats);
  const isList = core.name === 'ul' || core.name === 'ol' || core.name === 'dl';
  const isDataTable = core.name === 'table' && s.len > 0 && !hasNestedTable(core);
  // A block named by the generic word `meta` alone (a CMS's `jss-meta-block-section`) that holds
  // headings and little link text is a section of the page, not a byline: its name does not drop it.
  const metaSection = s.headings > 0 && ld < 0.5 && namesGenericMetaOnly(el);
  if (weight < 0 && (scores.get(el) ?? 0) + weight < 0 && s.pre === 0 && !metaSection) return true;
  if (s.commas >= 10 && ld < 0.5) return false;
  if (s.pre > 0 && ld < 0.5) return false;
  if (isDataTable && ld < 0.5) return false;
  if (s.input > Math.floor(s.p / 3) && s.input > 0) return true;
  if (s.len === 0) return !hasMedia(el);
  if (s.len < 25 && ld > 0 && s.img === 0 && s.headings === 0 && !isList) return true;
  if (isList) {
    const items = Math.max(1, s.li);
    // Every item a heading (`li > h2 > a`: an article's named picks, each linked to its shop) is the
    // story's list, not a menu of links.
    if (s.headings >= items) return false;
    return ld > 0.85 && s.len / items < 80;
  }
  if (s.headings > 0 && ld < 0.5) return false;
  // Two pictures beside a card's short text (a product shot and its hover shot) are a card of a grid,
  // not an image cluster.
  if (s.img > 1 && s.p / s.img < 0.5 && s.len < 200 && el.name !== 'figure' && !holdsProse(el, stats) && !gridItemAround(el, stats, regionLen)) return true;
  // A block that is mostly grid cards the rules below kept is their grid (a job board's list, a
  // section with its heading and cards): the cards' links make it link-dense, not a menu.
  const cardText = cards.text.get(el) ?? 0;
  if (cardText > 0 && cardText >= s.len * CARD_HOLDER_SHARE) return false;
  // Sentences with links in them (a callout: "Warning: follow the [upgrade guide] before ...", a
  // list of tasks each naming its tool) hold text of their own outside the links; a link list does not.
  if (weight < 25 && ld > 0.33 && s.len < 800 && !linkedProse(s, ld)) {
    if (ld < MAX_CARD_LINK_DENSITY ? gridItemAround(el, stats, regionLen) : isLinkedCardGridItem(el, stats, regionLen)) {
      keepCard(el, s.len, cards);
      return false;
    }
    return wrappedLinkedCard(el, stats, regionLen) ? WRAPPED_CARD : true;
  }
  // A card's body under a positive name (Bootstrap's `card-body`: its title link and price) is kept
  // as its grid item is, up to the card link density.
  if (weight >= 25 && ld > 0.5) {
    if (!(ld < MAX_CARD_LINK_DENSITY && gridItemAround(el, stats, regionLen))) return true;
    keepCard(el, s.len, cards);
  }
  return false;
}

/** Text outside links (characters) and the largest link density of a block of prose with links (`linkedProse`). */
const LINKED_PROSE_TEXT = 150;
const LINKED_PROSE_DENSITY = 0.6;

/**
 * Whether a block (stats `s`, link density `ld`) is prose with links in it rather than a link list: at
 * least LINKED_PROSE_TEXT characters outside links and link density under LINKED_PROSE_DENSITY.
 */
function linkedProse(s: Stats, ld: number): boolean {
  return ld < LINKED_PROSE_DENSITY && s.len - s.link >= LINKED_PROSE_TEXT;
}

/** Own text outside links (characters) that makes a block a paragraph even outside a `p`. */
const MIN_PROSE_OWN = 80;

/**
 * Whether `el` or an element under it holds a paragraph of its own text outside links (forum posts
 * write their text into the post's block with `<br>`s, no `p`): a few images next to it are then the
 * post's screenshots or smilies, not an image cluster.
 */
function holdsProse(el: Element, stats: StatsMap): boolean {
  for (const d of [el, ...elements(el)]) {
    const s = stats.get(d);
    if (s && s.own - s.ownLink >= MIN_PROSE_OWN) return true;
  }
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
  if (!el.parent) return false;
  const items = likeSiblings(el);
  const len = items.reduce((n, c) => n + (stats.get(c)?.len ?? 0), 0);
  return items.length >= MIN_GRID_ITEMS && len >= regionLen * MIN_GRID_SHARE;
}

/** A card wrapped in its link holds at least this much text (characters): a name, not a menu label. */
const MIN_LINKED_CARD_CHARS = 25;

/** Per parent and item key (tag and class), whether those items are all cards wrapped in one link each. */
const linkedCardMemo = new WeakMap<ParentNode, Map<string, boolean>>();

/**
 * Whether `el` is one item of a grid whose items are links whole (`div.item > a > div.details`: a
 * product name with its specs): a grid item (`isGridItem`) each of whose like siblings holds at least
 * MIN_LINKED_CARD_CHARS of text and links to one target only (a picture link and a title link to the
 * same page count once). A menu's or footer's columns link to many pages each; a menu's items are
 * short labels. Memoized per parent and key (a grid's items share the answer).
 */
function isLinkedCardGridItem(el: Element, stats: StatsMap, regionLen: number): boolean {
  const parent = el.parent;
  if (!parent) return false;
  const key = `${el.name}.${el.attribs.class ?? ''}`;
  let byKey = linkedCardMemo.get(parent);
  const known = byKey?.get(key);
  if (known !== undefined) return known;
  const ok = isGridItem(el, stats, regionLen) && likeSiblings(el).every((c) => (stats.get(c)?.len ?? 0) >= MIN_LINKED_CARD_CHARS && linkTargets(c) <= 1);
  if (!byKey) linkedCardMemo.set(parent, (byKey = new Map()));
  byKey.set(key, ok);
  return ok;
}

/** Wrappers above a card's info block searched for the grid item of linked cards. */
const CARD_WRAPPER_LEVELS = 2;

/**
 * Whether `el` is all the text of up to CARD_WRAPPER_LEVELS wrappers above it, one of which is a
 * grid item of one-target cards (`isLinkedCardGridItem`): a card's info block (its title link and
 * price) under `li.item > div.card-inner`, whose image link holds no text.
 */
function wrappedLinkedCard(el: Element, stats: StatsMap, regionLen: number): boolean {
  const len = stats.get(el)?.len ?? 0;
  let cur: Element = el;
  for (let i = 0; i < CARD_WRAPPER_LEVELS; i++) {
    const p = cur.parent;
    if (!p || !isTag(p as Element) || (stats.get(p as Element)?.len ?? 0) !== len) return false;
    cur = p as Element;
    if (isLinkedCardGridItem(cur, stats, regionLen)) return true;
  }
  return false;
}

/**
 * Whether `el` is a grid item (`isGridItem`) or all the text of up to CARD_WRAPPER_LEVELS wrappers
 * above it one of which is: `div.col-6 > div.card > div.card-body`, whose pictures hold no text.
 */
function gridItemAround(el: Element, stats: StatsMap, regionLen: number): boolean {
  const len = stats.get(el)?.len ?? 0;
  let cur: Element = el;
  for (let i = 0; ; i++) {
    if (isGridItem(cur, stats, regionLen)) return true;
    const p = cur.parent;
    if (i >= CARD_WRAPPER_LEVELS || !p || !isTag(p as Element) || (stats.get(p as Element)?.len ?? 0) !== len) return false;
    cur = p as Element;
  }
}

/** Number of distinct link targets (`href` values) under `el`. */
function linkTargets(el: Element): number {
  const hrefs = new Set<string>();
  for (const d of elements(el)) if (d.name === 'a') hrefs.add(d.attribs.href ?? '');
  return hrefs.size;
}

const PROMO_LEAD = /^(read more|related|see also|also read|read also|more|read|watch|listen|recommended|don't miss|do not miss|must read|further reading|more on this( story)?)\s*[:|–—-]?$/i;

/** Inline elements searched through for a paragraph's lead. */
const INLINE_WRAPPERS = new Set(['em', 'i', 'strong', 'b', 'span', 'mark', 'small', 'u']);

/** A paragraph that only points to another story: "Read more: <link>", "Related: <link>". */
function isInlinePromo(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.len === 0 || s.len > 200 || s.link / s.len < 0.5) return false;
  return PROMO_LEAD.test(normalizeSpace(leadBeforeLink(el) ?? '').replace(LEAD_MARKS, ''));
}

/** Arrows and other marks before a lead ("» Read more:", "➡️ Related:"). */
const LEAD_MARKS = /^[^\p{L}\p{N}]+/u;

/**
 * The text of `el` before its first link, through the inline wrappers that hold the link too
 * (`<p><em>Also read: <a>…</a></em></p>`); undefined when it holds no link.
 */
function leadBeforeLink(el: Element): string | undefined {
  let lead = '';
  for (const c of el.children) {
    if (isTag(c) && c.name === 'a') return lead;
    if (isTag(c) && INLINE_WRAPPERS.has(c.name)) {
      const inner = leadBeforeLink(c);
      if (inner !== undefined) return lead + inner;
    }
    lead += textOf(c);
  }
  return undefined;
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
/** An alt whose distinct words a card's text holds to this share (0-1) repeats it. */
const ALT_REPEAT_SHARE = 0.5;
/** A context of at most this much text (characters, white space included) is a card. */
const MAX_CARD_CONTEXT_CHARS = 300;
/** Levels above an image searched for the text of its card or figure. */
const ALT_CONTEXT_LEVELS = 4;
/**
 * Alts that say nothing of the content: a file name left as the alt (`home img 1.jpg`, `Blue.png`), or
 * one naming the image as an icon, a logo or an arrow (`icon - internet globe`, `Acme logo white`, the
 * customer-logo bars and feature-tile icons of marketing pages). Tested on the lower-cased alt. On the
 * WCXB dev split the ground truths leave such words out: 43 pages better, none worse (service +0.0017).
 */
const DECORATIVE_ALT = /\.(?:jpe?g|png|gif|webp|svg|avif)$|\b(?:icons?|logos?|arrow)\b/;

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
 * Blanks image alts in the main content (onlyMainContent): the image stays (`![](url)`), its alt goes.
 * Human-reviewed main texts (WCXB) leave alts out: they describe a photo (`Front view of the laptop
 * with its lid open`), name a file or an icon, or repeat a caption or a card's title. An image that is
 * all a link shows keeps its alt, which is the link's text (markdown keeps links with their text),
 * unless the alt is a sentence describing the photo (at least MIN_DESCRIPTION_ALT_WORDS words, most
 * not capitalized: "Two people eating salads at a white table"; the ground truths leave those out,
 * and keep a title in Title Case) or says nothing the page does not already say: the picture of a grid item
 * (inRepeatedItem: a card of at most 500 characters among three or more like siblings, whose own text
 * names it), an alt that only names a file, an icon, a logo or an arrow (DECORATIVE_ALT), the second
 * copy of an alt in one context, a picture beside a short text outside a figure, or an alt whose words
 * the text next to it holds (half of them in a card of at most 300 characters, all elsewhere).
 */
/** A linked picture's alt of at least this many words ... */
const MIN_DESCRIPTION_ALT_WORDS = 8;
/** ... with under this share (0-1) of its words capitalized describes the photo: it is no link text. */
const MIN_TITLE_SHARE = 0.5;
const TEXT_WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;
const CAPITALIZED = /^[\p{Lu}\p{N}]/u;

/** Share (0-1) of the words of `text` that start with a capital letter or a digit (Title Case: most). */
function titleShare(text: string): number {
  const words = text.match(TEXT_WORD) ?? [];
  return words.length ? words.filter((w) => CAPITALIZED.test(w)).length / words.length : 0;
}

export function blankAlts(nodes: ParentNode[]): void {
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
    const likes = new Map<Element, number>();
    for (const img of imgs) {
      const alt = normalizeSpace(img.attribs.alt ?? '').toLowerCase();
      if (!alt) continue;
      // A picture in the main content is shown by its URL; its alt (a photo's description, a file
      // name, a slogan) is not the page's text. Only a link that is nothing but the picture keeps it:
      // there the alt is the link's text.
      if (!namesLink(img)) {
        img.attribs.alt = '';
        continue;
      }
      // The picture of one item of a grid (a product, a course, a story teaser) is a thumbnail: its alt
      // describes the photo, not the item, whose name and details are the card's text.
      if (inRepeatedItem(img, top, textAt, likes)) {
        img.attribs.alt = '';
        continue;
      }
      const altWords = alt.match(ALT_WORD);
      if (!altWords) continue;
      // A sentence describing the photo ("A plate of pasta on a wooden table") is no link text; a
      // title in Title Case is (a story's or product's name on its picture link).
      if (altWords.length >= MIN_DESCRIPTION_ALT_WORDS && titleShare(img.attribs.alt ?? '') < MIN_TITLE_SHARE) {
        img.attribs.alt = '';
        continue;
      }
      if (DECORATIVE_ALT.test(alt)) {
        img.attribs.alt = '';
        continue;
      }
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
      const card = text.length <= MAX_CARD_CONTEXT_CHARS;
      // A picture set beside a short text outside a figure (a tile, a teaser, a banner with its
      // tagline) illustrates that text: its alt goes whatever it says. A figure's caption is not the
      // picture's subject, nor is the sentence of a paragraph holding the picture, nor a short story of
      // two paragraphs or more: a describing alt there stays.
      if (card && !inFigure(img, ctx!) && (ctx as Element).name !== 'p' && paragraphsUnder(ctx!) < MIN_STORY_PARAGRAPHS) {
        img.attribs.alt = '';
        continue;
      }
      let have = words.get(ctx!);
      if (!have) words.set(ctx!, (have = wordsUnder(ctx!)));
      // In a card (short context) an alt mostly made of the card's words repeats it; in a longer
      // context common words match anything, so every word must be there.
      const distinct = new Set(altWords);
      const need = card ? distinct.size * ALT_REPEAT_SHARE : distinct.size;
      let found = 0;
      for (const w of distinct) if (have.has(w)) found++;
      if (found >= need) img.attribs.alt = '';
    }
  }
}

/** Whether `img` is all a link shows (`<a><img alt="Home"></a>`, possibly wrapped): its alt is the link's text. */
function namesLink(img: Element): boolean {
  for (let p = img.parent; p && isTag(p as AnyNode); p = p.parent) {
    if (textOf(p as AnyNode).trim()) return false;
    if ((p as Element).name === 'a') return true;
  }
  return false;
}

/** A short context holding this many paragraphs is a story, not a tile (its pictures keep describing alts). */
const MIN_STORY_PARAGRAPHS = 2;

/** Number of `p` elements under `node`, counted up to MIN_STORY_PARAGRAPHS. */
function paragraphsUnder(node: ParentNode): number {
  let n = 0;
  for (const e of elements(node)) if (e.name === 'p' && ++n >= MIN_STORY_PARAGRAPHS) break;
  return n;
}

/** Whether `img` sits in a figure: a `figure` between it and its text context `ctx`, or `ctx` a figure or its caption. */
function inFigure(img: Element, ctx: ParentNode): boolean {
  for (let p: ParentNode | null = img.parent; p; p = p.parent) {
    if (isTag(p as AnyNode) && ((p as Element).name === 'figure' || (p as Element).name === 'figcaption')) return true;
    if (p === ctx) return false;
  }
  return false;
}

/** Levels above an image searched for the grid item holding it. */
const ITEM_LEVELS = 6;
/** Least number of like siblings (same tag and class) that make an element one item of a grid. */
const MIN_LIKE_ITEMS = 3;
/** A grid item holds at most this much text (characters, white space collapsed): a card, not a section. */
const MAX_ITEM_CHARS = 500;

/**
 * Whether `img` lies in one item of a grid: an element up to ITEM_LEVELS above it (not above `top`,
 * a `main` or the body) that has at least MIN_LIKE_ITEMS siblings-or-self of its tag and class and
 * holds at most MAX_ITEM_CHARS of text. Paragraphs are prose, never items (an article's run of `p`
 * elements each holding a figure). `likes` memoizes the like-sibling count per element.
 */
function inRepeatedItem(img: Element, top: ParentNode, textAt: (n: ParentNode) => string, likes: Map<Element, number>): boolean {
  let el: Element = img;
  for (let i = 0; i < ITEM_LEVELS && el !== top; i++) {
    const p = el.parent;
    if (!p || !isTag(p as AnyNode)) return false;
    el = p as Element;
    if (el.name === 'main' || el.name === 'body' || el === top || !el.parent) return false;
    if (el.name === 'p') continue;
    let n = likes.get(el);
    if (n === undefined) {
      n = likeSiblings(el).length;
      likes.set(el, n);
    }
    if (n >= MIN_LIKE_ITEMS) return normalizeSpace(textAt(el)).length <= MAX_ITEM_CHARS;
  }
  return false;
}

/** A control label is at most this long (non-white-space characters): "Add to cart", "Quick view". */
const MAX_CONTROL_CHARS = 40;
/** Controls with the same label at least this many times are per-item actions of a grid. */
const MIN_REPEATED_CONTROLS = 3;
/** A class word naming a button (`btn`, `button--small`, `ipc-btn__text`) ... */
const BUTTON_WORD = /(?:^|[^a-z])(?:btn|buttons?)(?:[^a-z]|$)/i;
/** ... or a camel-case part naming one (`QuickViewButton`, `WishlistButtonText`). */
const BUTTON_PART = /Button/;
/** Containers where a button is a toggle of the content (an accordion's question, a sortable column). */
const TOGGLE_HOSTS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'th', 'td', 'summary', 'label']);
/** Levels above a control searched for a toggle host. */
const TOGGLE_HOST_LEVELS = 3;

/**
 * Removes the action controls repeated on every item of a grid: a `button`, a `role=button`, a link
 * without a target (a script's toggle), or an element whose class names a button, of at most
 * MAX_CONTROL_CHARS characters, standing on its own (not a word of a sentence, not inside a heading,
 * table cell, summary or label, where a button toggles content), whose label (white space collapsed,
 * case ignored) recurs on at least MIN_REPEATED_CONTROLS such controls under `nodes` ("Add to cart",
 * "Quick view", "Compare", "Mark as watched" on each card; "Click to expand..." under each quote of a
 * thread). Controls with labels of their own (a variant picker's sizes, "Shop men's at ...") stay.
 * Runs on the chosen region and on the safe cleanup's page, after the region was chosen, so it never
 * moves the region.
 */
export function dropRepeatedControls(nodes: ParentNode[]): void {
  const found: { el: Element; label: string }[] = [];
  for (const top of nodes) {
    for (const el of isTag(top as AnyNode) ? [top as Element, ...elements(top)] : elements(top)) {
      if (el === top || !isControl(el)) continue;
      if (found.length && isAncestor(found[found.length - 1].el, el)) continue;
      const label = controlLabel(el);
      if (!label || !standsAlone(el)) continue;
      // A quote's expand toggle ("Click to expand...") is the quote's chrome however often it occurs.
      if (inQuote(el)) detachNode(el);
      else found.push({ el, label });
    }
  }
  if (found.length >= MIN_REPEATED_CONTROLS) {
    const counts = new Map<string, number>();
    for (const f of found) counts.set(f.label, (counts.get(f.label) ?? 0) + 1);
    for (const f of found) if ((counts.get(f.label) ?? 0) >= MIN_REPEATED_CONTROLS && f.el.parent) detachNode(f.el);
  }
  dropRepeatedActionLinks(nodes);
}

/** A control label naming its item after the action ("Save this event: <title>") is at most this long (non-white-space characters). */
const MAX_NAMED_CONTROL_CHARS = 200;
/** "<action>: <item>" with an action of one to four words. */
const NAMED_ACTION = /^((?:[\p{L}\p{N}'’]+ ){0,3}[\p{L}\p{N}'’]+):\s/u;

/**
 * The label a control is counted by (white space collapsed, lower case): its text when at most
 * MAX_CONTROL_CHARS characters, or the action of a label that names its item after it ("Save this
 * event: Tech talk replay" counts as "save this event:", as screen-reader labels of icon buttons
 * say; not on links, whose "Review: <title>" is the item's title); undefined for longer texts.
 */
function controlLabel(el: Element): string | undefined {
  const size = nonSpaceLength(el);
  if (size <= MAX_CONTROL_CHARS) return normalizeSpace(textOf(el)).toLowerCase() || undefined;
  // A link naming its target that way is a title ("Tested: <car>"), not an action.
  if (el.attribs.href !== undefined || size > MAX_NAMED_CONTROL_CHARS) return undefined;
  const text = normalizeSpace(textOf(el));
  const m = NAMED_ACTION.exec(text);
  return m ? `${m[1].toLowerCase()}:` : undefined;
}

/** An action link's label has at most this many words ("Comment", "0 comments", "More like this"). */
const MAX_ACTION_LINK_WORDS = 3;
const ACTION_LINK_WORD = /[\p{L}\p{N}]+/gu;
const HAS_LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

/**
 * Whether a link is one option of a set: it (or a wrapper holding only its text, up to three levels)
 * is a list item, or has a sibling of its tag and class (a colour swatch beside the other colours).
 */
function isListOption(a: Element, likes: Map<ParentNode, Map<string, number>>): boolean {
  let el: Element = a;
  const own = normalizeSpace(textOf(a));
  for (let i = 0; i < 4; i++) {
    if (el.name === 'li' || el.name === 'option') return true;
    const p = el.parent;
    if (!p || !isTag(p as AnyNode)) return false;
    let counts = likes.get(p);
    if (!counts) {
      counts = new Map();
      for (const c of p.children) if (isTag(c)) counts.set(`${c.name} ${c.attribs.class ?? ''}`, (counts.get(`${c.name} ${c.attribs.class ?? ''}`) ?? 0) + 1);
      likes.set(p, counts);
    }
    if ((counts.get(`${el.name} ${el.attribs.class ?? ''}`) ?? 0) > 1) return true;
    el = p as Element;
    if (normalizeSpace(textOf(el)) !== own) return false;
  }
  return false;
}

/** A post's number shown as its permalink ("#12" beside each post of a thread) ... */
const POST_NUMBER = /^\s*#\d+\s*$/;
/** ... linking to the post: an anchor on the page or a post's address. */
const POST_LINK = /#|\bposts?\b/i;
/** The label all post numbers share (a label of words never starts with `#`). */
const POST_NUMBER_LABEL = '#post';

/**
 * Removes the per-item action links of a list: links standing on their own (no loose text beside
 * them, not in a heading, table cell, summary or label) whose short label (at most
 * MAX_ACTION_LINK_WORDS words, digits masked so "0 comments" and "14 comments" are one label, at least
 * one letter) recurs on at least MIN_REPEATED_CONTROLS links pointing to as many different targets:
 * "Comment", "12 comments", "More like this" under every teaser of a news list, each to its own story.
 * The item's title links have labels of their own, and a tag or author link repeated on several items
 * points to one target (its tag or author page), so both stay; price links hold no letter. Post
 * numbers linking to their posts ("#12", each post's permalink) count as one label too.
 */
function dropRepeatedActionLinks(nodes: ParentNode[]): void {
  const byLabel = new Map<string, Element[]>();
  for (const top of nodes) {
    for (const el of isTag(top as AnyNode) ? [top as Element, ...elements(top)] : elements(top)) {
      if (el.name !== 'a' || !el.attribs.href) continue;
      const text = textOf(el);
      const label = POST_NUMBER.test(text) && POST_LINK.test(el.attribs.href) ? POST_NUMBER_LABEL : actionLabel(text);
      if (label === undefined) continue;
      const list = byLabel.get(label);
      if (list) list.push(el);
      else byLabel.set(label, [el]);
    }
  }
  // The structural checks run only on labels that recur, with per-parent answers kept: a page of
  // thousands of sibling links pays one scan of their parent, not one per link.
  const loose = new Map<ParentNode, boolean>();
  const likes = new Map<ParentNode, Map<string, number>>();
  for (const els of byLabel.values()) {
    if (els.length < MIN_REPEATED_CONTROLS || new Set(els.map((e) => e.attribs.href)).size < MIN_REPEATED_CONTROLS) continue;
    const actions = els.filter((el) => standsAlone(el, loose) && !isListOption(el, likes));
    if (actions.length < MIN_REPEATED_CONTROLS || new Set(actions.map((e) => e.attribs.href)).size < MIN_REPEATED_CONTROLS) continue;
    for (const el of actions) if (el.parent) detachNode(el);
  }
}

/**
 * The label an action link is grouped by: its few words lower-cased, a leading count as `#` ("14
 * comments" → "# comments"); undefined for a text that is no action label (too long, no letter, too
 * many words, digits that name the item: a date, a model number).
 */
function actionLabel(text: string): string | undefined {
  if (text.length > MAX_CONTROL_CHARS * 2 || !HAS_LETTER.test(text)) return undefined;
  const words = text.toLowerCase().match(ACTION_LINK_WORD);
  if (!words || words.length > MAX_ACTION_LINK_WORDS) return undefined;
  // Digits only as a count before the words ("14 comments"); a date or a model number names its item.
  if (words.slice(1).some((w) => DIGIT.test(w)) || (DIGIT.test(words[0]) && (words.length < 2 || !/^\p{N}+$/u.test(words[0])))) return undefined;
  return words.join(' ').replace(/\p{N}+/gu, '#');
}

/** Whether `el` is a button: a `button`, a `role=button`, a link without a target, or named as one by its class. */
function isControl(el: Element): boolean {
  if (el.name === 'button') return true;
  // A script's toggle: a link to nowhere ("Click to expand..." under every quote of a thread), or
  // anything the page marks as a button.
  if (el.attribs.role === 'button' || (el.name === 'a' && el.attribs.href === undefined)) return true;
  const c = el.attribs.class;
  return !!c && (BUTTON_WORD.test(c) || BUTTON_PART.test(c));
}

/** Levels above a control searched for the block quote it toggles. */
const QUOTE_TOGGLE_LEVELS = 3;

/** Whether control `el` sits in a `blockquote` (within QUOTE_TOGGLE_LEVELS levels): the quote's expand toggle. */
function inQuote(el: Element): boolean {
  let p = el.parent;
  for (let i = 0; i < QUOTE_TOGGLE_LEVELS && p && isTag(p as AnyNode); i++, p = p.parent) if ((p as Element).name === 'blockquote') return true;
  return false;
}

/**
 * Whether a control stands on its own: no toggle host above it, no loose text of a sentence beside it.
 * `loose` keeps each parent's answer (has loose text) for callers that test many siblings: a page of
 * thousands of sibling links then pays one scan of their parent, not one per link.
 */
function standsAlone(el: Element, loose = new Map<ParentNode, boolean>()): boolean {
  let p = el.parent;
  for (let i = 0; i < TOGGLE_HOST_LEVELS && p && isTag(p as AnyNode); i++, p = p.parent) if (TOGGLE_HOSTS.has((p as Element).name)) return false;
  const parent = el.parent;
  if (!parent) return false;
  let hasText = loose.get(parent);
  if (hasText === undefined) {
    hasText = parent.children.some((c) => c.type === 'text' && !!(c as Text).data.trim());
    loose.set(parent, hasText);
  }
  return !hasText;
}

/** Words per shingle when comparing a quote with the text before it. */
const QUOTE_SHINGLE = 5;
/** A quote whose shingles occur earlier to this share (0-1) repeats an earlier post. */
const REPEATED_QUOTE_SHARE = 0.8;
const QUOTE_WORD = /[\p{L}\p{N}]+/gu;

/** Tags that never hold a quoted post (inline elements named `quote` style a word or a button). */
const NOT_QUOTE_BLOCKS = new Set(['a', 'span', 'button', 'i', 'b', 'em', 'strong', 'img', 'svg', 'p']);

/**
 * Whether `el` is a block quote: a `blockquote`, or a block whose class names a quote (`bbcode_quote`,
 * `quote_container`): boards that quote the post a reply answers in a styled `div`.
 */
function isQuote(el: Element): boolean {
  if (el.name === 'blockquote') return true;
  const cls = el.attribs.class;
  if (!cls || !QUOTE_CLASS.test(cls) || NOT_QUOTE_BLOCKS.has(el.name)) return false;
  return cls.split(/\s+/).some((name) => {
    // The head word: `quote_container`, `bbcode_quote`; not a script hook (`js-selectToQuote` on a post).
    const t = classTokens(name).filter((w) => !QUOTE_MODIFIERS.has(w));
    return t.length > 0 && t[t.length - 1] === 'quote' && t[0] !== 'js';
  });
}

/** Words after `quote` that keep it the head word of a class name. */
const QUOTE_MODIFIERS = new Set(['container', 'wrapper', 'wrap', 'box', 'block', 'inner', 'outer']);

const QUOTE_CLASS = /quote/i;

/**
 * Removes block quotes that repeat text said earlier in `nodes` (a forum reply quoting the post it
 * answers): at least 80% of the quote's 5-word shingles occur in the text before it. A quote of text
 * that appears nowhere before (an epigraph, a citation) stays. Pages without quotes pay one walk.
 */
export function dropRepeatedQuotes(nodes: ParentNode[]): void {
  const quotes = nodes.flatMap((n) => (isTag(n as AnyNode) && isQuote(n as Element) ? [n as Element] : [...elements(n)].filter(isQuote)));
  if (!quotes.length) return;
  const seen = new Set<string>();
  const window: string[] = [];
  const remove: Element[] = [];
  // Text after the last quote is compared with nothing: the walk ends once that quote is judged.
  const lastQuote = quotes[quotes.length - 1];
  let done = false;
  // Walks the text in document order; a quote is judged against what came before it, then skipped.
  // A quote inside a quote (a reply quoting a post, in a board that writes every post as a quote) is
  // judged on its own against the text before the outer one; the outer one without it.
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
    if (isQuote(node)) {
      const shingles: string[] = [];
      window.length = 0;
      for (const c of node.children) visit(c, node, shingles);
      window.length = 0;
      const hits = shingles.filter((s) => seen.has(s)).length;
      if (shingles.length && hits >= shingles.length * REPEATED_QUOTE_SHARE) remove.push(node);
      else if (quoteShingles) quoteShingles.push(...shingles);
      else for (const s of shingles) seen.add(s);
      if (!inQuote) done = node === lastQuote || isAncestor(node, lastQuote);
      return;
    }
    for (const c of node.children) visit(c, inQuote, quoteShingles);
  };
  for (const n of nodes) visit(n as AnyNode, undefined, undefined);
  for (const q of remove) detachNode(q);
}

/**
 * A link to an account page: sign in, sign up, register, join (a path segment of its URL); or to the
 * page where one asks a new question (`/questions/ask`), which Q&A threads close with the same way.
 */
const ACCOUNT_PATH = /\/(?:log-?in|sign-?in|sign-?up|register|registration|join|ask)(?:[/?#.]|$)/i;
/** Longest account prompt (characters, white space collapsed). */
const MAX_PROMPT_CHARS = 300;
/** Least share of a prompt's text in its account links. */
const MIN_PROMPT_LINK_SHARE = 0.1;
/** A prompt's paragraphs are shorter than this (characters): "You need to be a member in order to leave a comment". */
const MAX_PROMPT_PARAGRAPH = 80;
/** A paragraph or a list item alone is a sentence of the text that names a sign-up page, not a prompt. */
const PROSE_ITEMS = new Set(['p', 'li']);

function isAccountLink(a: Element): boolean {
  const href = a.attribs.href;
  if (!href) return false;
  try {
    return ACCOUNT_PATH.test(new URL(href, 'https://x.invalid/').pathname);
  } catch {
    return false;
  }
}

/**
 * Removes account prompts from the region: the largest block around a link to a sign-in or sign-up
 * page (`/login/`, `/register/`, `/users/signup`) or to the ask-a-question page (`/questions/ask`:
 * "Start asking to get answers … Ask question") whose every link is such a link, holding at most 300
 * characters with at least 10% of them in those links ("Create an account or sign in to comment",
 * "You must log in or register to reply here."). Threads end with one; a paragraph or list item alone
 * (a sentence saying where to register for an event, a prerequisite "a free account") is not taken,
 * and neither is a node of the region itself.
 */
export function dropAccountPrompts(nodes: ParentNode[]): void {
  const tops = new Set<unknown>(nodes);
  const remove = new Set<Element>();
  for (const n of nodes) {
    for (const a of isTag(n as AnyNode) ? [n as Element, ...elements(n)] : [...elements(n)]) {
      if (a.name !== 'a' || !isAccountLink(a)) continue;
      let block: Element | undefined;
      for (let p = a.parent; p && isTag(p) && !tops.has(p); p = p.parent) {
        if (!isPrompt(p)) break;
        block = p;
      }
      if (block && !PROSE_ITEMS.has(block.name)) remove.add(block);
    }
  }
  for (const el of remove) if (![...remove].some((o) => o !== el && isAncestor(o, el))) detachNode(el);
}

/** Whether `el` reads as an account prompt (see dropAccountPrompts). */
function isPrompt(el: Element): boolean {
  const len = normalizeSpace(textOf(el)).length;
  if (len === 0 || len > MAX_PROMPT_CHARS) return false;
  let account = 0;
  for (const d of elements(el)) {
    // A paragraph of prose: a post or a section that mentions a sign-up page, not a prompt.
    if (d.name === 'p' && normalizeSpace(textOf(d)).length >= MAX_PROMPT_PARAGRAPH) return false;
    if (d.name !== 'a') continue;
    const t = normalizeSpace(textOf(d)).length;
    if (!t) continue;
    if (!isAccountLink(d)) return false;
    account += t;
  }
  return account >= len * MIN_PROMPT_LINK_SHARE;
}

/** Longest prefix (characters, letters only once normalized) of a reply's subject before the thread title: `Re`, `AW`, `SV`. */
const MAX_REPLY_PREFIX = 3;
/** Least number of reply subjects (prefix + title) that make the title-like headings of a region per-post chrome. */
const MIN_REPLY_SUBJECTS = 2;

/** Lower-cased letters and digits of a text, single-spaced (punctuation and links' brackets aside). */
function normHeading(text: string): string {
  return normalizeSpace(text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' '));
}

/**
 * Removes the subject lines of a thread's posts: headings in `nodes` that say the thread's title
 * (`title`, the page's title heading), bare or after a short prefix (`Re: <title>`), when at least two
 * carry the prefix. Classic boards (phpBB, FluxBB) head every post with its subject, which repeats the
 * title post after post; the posts' text is the content, not its subject line. The title heading itself
 * (`except`) stays.
 */
export function dropReplySubjects(nodes: ParentNode[], title: string, except?: Element): void {
  const t = normHeading(title);
  if (!t) return;
  const subjects: Element[] = [];
  let replies = 0;
  for (const n of nodes) {
    const all = isTag(n as AnyNode) ? [n as Element, ...elements(n)] : [...elements(n)];
    for (const el of all) {
      if (!HEADING_TAGS.has(el.name) || el === except) continue;
      const h = normHeading(textOf(el));
      if (h === t) subjects.push(el);
      else if (h.endsWith(` ${t}`) && h.length - t.length - 1 <= MAX_REPLY_PREFIX && !h.slice(0, -t.length - 1).includes(' ')) {
        subjects.push(el);
        replies++;
      }
    }
  }
  if (replies < MIN_REPLY_SUBJECTS) return;
  for (const el of subjects) detachNode(el);
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
 * A section (div, section ... with two or more element children) of at least MIN_DISTANT_COPY_CHARS
 * whose text equals an earlier element's anywhere in the walk (`seenAnywhere`, shared across the
 * region's nodes) is a copy too: carousels clone their slides, responsive variants sit in other rows.
 * @param seenAnywhere elements seen so far in the walk, by the length of their collapsed text
 */
export function dropSiblingCopies(node: AnyNode, seenAnywhere: CopyRegistry = new Map()): void {
  copyFreeMeasure(node, seenAnywhere);
}

/**
 * Elements of at least MIN_DISTANT_COPY_CHARS characters that were not copies, in walk order, keyed
 * by the length of their collapsed, trimmed text; their text is read only when an element of the
 * same length is compared with them, and kept once read.
 */
export type CopyRegistry = Map<number, { node: AnyNode; key?: string }[]>;

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

function measureText(s: string): Measure {
  const n = s.length;
  if (!n) return 0;
  let len = 0;
  let inRun = false;
  for (let i = 0; i < n; i++) {
    if (isSpaceCode(s.charCodeAt(i))) {
      if (!inRun) len++;
      inRun = true;
    } else {
      len++;
      inRun = false;
    }
  }
  return len * 4 + (isSpaceCode(s.charCodeAt(0)) ? 2 : 0) + (inRun ? 1 : 0);
}

/** Text of a node as dropSiblingCopies reads it: text nodes, inside elements (and the document) only. */
function copyText(node: AnyNode): string {
  if (node.type === 'text') return (node as Text).data;
  if (!isTag(node) && node.type !== 'root') return '';
  let text = '';
  for (const c of (node as ParentNode).children) text += copyText(c);
  return text;
}

/** `normalizeSpace` of a node's text: the key copies are compared by. */
const copyKey = (node: AnyNode): string => normalizeSpace(copyText(node));

/**
 * The latest element in `registry` whose text is `key` (of length `len`), as a distant copy's
 * original: still in the tree and not inside `el` (a wrapper repeats its own child's text).
 */
function distantOriginal(registry: CopyRegistry, len: number, key: string, el: AnyNode): boolean {
  const entries = registry.get(len);
  if (!entries) return false;
  for (let j = entries.length - 1; j >= 0; j--) {
    const e = entries[j];
    e.key ??= copyKey(e.node);
    if (e.key === key) return !!e.node.parent && !isAncestor(el, e.node);
  }
  return false;
}

/**
 * Removes the copies under `node` (each child's own first, then the child itself when it is a copy of
 * an earlier sibling or, for sections, of an earlier element anywhere) and measures what is left.
 */
function copyFreeMeasure(node: AnyNode, registry: CopyRegistry): Measure {
  if (node.type === 'text') return measureText((node as Text).data);
  if (!isTag(node) && node.type !== 'root') return 0;
  const kids = (node as ParentNode).children;
  const measures: Measure[] = new Array(kids.length);
  let siblings: Map<number, { node: AnyNode; key?: string }[]> | undefined;
  let copies: AnyNode[] | undefined;
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    const m = copyFreeMeasure(c, registry);
    measures[i] = m;
    if (!isTag(c)) continue;
    const len = trimmedLength(m);
    if (len < MIN_COPY_CHARS) continue;
    let key: string | undefined;
    const same = siblings?.get(len);
    let copy = false;
    if (same) {
      key = copyKey(c);
      for (const s of same) {
        s.key ??= copyKey(s.node);
        if (s.key === key) {
          copy = true;
          break;
        }
      }
    }
    if (!copy && len >= MIN_DISTANT_COPY_CHARS && isSection(c) && registry.has(len)) {
      key ??= copyKey(c);
      copy = distantOriginal(registry, len, key, c);
    }
    if (copy) {
      (copies ??= []).push(c);
      measures[i] = 0;
      continue;
    }
    const entry = { node: c as AnyNode, key };
    siblings ??= new Map();
    const bucket = siblings.get(len);
    if (bucket) bucket.push(entry);
    else siblings.set(len, [entry]);
    if (len >= MIN_DISTANT_COPY_CHARS) {
      const registered = registry.get(len);
      if (registered) registered.push(entry);
      else registry.set(len, [entry]);
    }
  }
  let total: Measure = 0;
  for (let i = 0; i < measures.length; i++) total = joinMeasures(total, measures[i]);
  if (copies) for (const c of copies) detachNode(c);
  return total;
}

/** Copies that are not siblings must be this long (characters): a short note may be repeated on purpose. */
const MIN_DISTANT_COPY_CHARS = 300;

/** Tags of sections that a page builder or carousel renders twice (not single paragraphs, items or cells). */
const SECTION_TAGS = new Set(['div', 'section', 'article', 'aside', 'header', 'footer']);

/** Whether `el` is a section holding at least two element children (a repeated paragraph alone is said twice on purpose). */
function isSection(el: Element): boolean {
  if (!SECTION_TAGS.has(el.name)) return false;
  let n = 0;
  for (const c of el.children) if (isTag(c) && ++n >= 2) return true;
  return false;
}

/** Elements that make a figure a code listing, a table or a quotation: their captions are content. */
const CAPTIONED_CONTENT_TAGS = new Set(['pre', 'code', 'table', 'blockquote']);
/** A caption longer than this (characters) is prose set in a caption element, not a caption. */
const MAX_CAPTION_CHARS = 400;
/** How far up a caption looks for its `figure`. */
const CAPTION_FIGURE_LEVELS = 3;

/**
 * Drops picture captions from the region: a `figcaption` of at most 400 characters whose frame (the
 * nearest `figure` up to three levels, else the caption's parent: sites set captions in a `div` next
 * to the picture) holds no code, table or quotation. Photo credits ("Courtesy of …", "Getty
 * Images") and picture descriptions are not the text of a story: on the WCXB article pages the ground
 * truth left out 93% of the caption words (87 domains) and kept the captions of code listings
 * ("Listing 4-1: …") and of quotations (the attribution). A long one is prose in a caption element
 * (a page wrapping its body in one) and stays.
 */
export function dropMediaCaptions(nodes: ParentNode[]): void {
  for (const top of nodes) {
    const caps = isTag(top as AnyNode) && (top as Element).name === 'figcaption' ? [] : elementList(top).filter((e) => e.name === 'figcaption');
    for (const cap of caps) {
      if (!cap.parent) continue;
      let frame: ParentNode = cap.parent;
      for (let p: ParentNode | null = cap.parent, i = 0; p && i < CAPTION_FIGURE_LEVELS; p = p === top ? null : p.parent, i++) {
        if (isTag(p as AnyNode) && (p as Element).name === 'figure') {
          frame = p;
          break;
        }
      }
      if (elementList(frame).some((e) => CAPTIONED_CONTENT_TAGS.has(e.name))) continue;
      if (textOf(cap).trim().length > MAX_CAPTION_CHARS) continue;
      detachNode(cap);
    }
    const figures = isTag(top as AnyNode) && (top as Element).name === 'figure' ? [top as Element] : elementList(top).filter((e) => e.name === 'figure');
    for (const fig of figures) if (fig.parent) dropFigureText(fig);
  }
}

/** Media that make a figure a picture's frame. */
const FIGURE_MEDIA_TAGS = new Set(['img', 'picture', 'video']);

/**
 * Drops the text of a picture's frame set outside a `figcaption`: a `figure` holding a picture, no
 * code, table, quotation, heading or paragraph (a product page's figures of stats and claims), and at
 * most MAX_CAPTION_CHARS characters of text keeps its picture and loses its text (a credit in a `div`
 * or `span` beside the image, "Credit: Getty Images", "Photo: …", a viewer's "click to view image in
 * full size"): the words a `figcaption` would hold, which the ground truths leave out.
 */
function dropFigureText(fig: Element): void {
  let media = false;
  for (const e of elements(fig)) {
    if (CAPTIONED_CONTENT_TAGS.has(e.name) || HEADING_TAGS.has(e.name) || e.name === 'p') return;
    if (FIGURE_MEDIA_TAGS.has(e.name)) media = true;
  }
  if (!media) return;
  const text = textOf(fig).trim();
  if (!text || text.length > MAX_CAPTION_CHARS) return;
  const strip = (el: Element) => {
    for (const c of [...el.children]) {
      if (c.type === 'text') {
        if ((c as Text).data.trim()) detachNode(c);
      } else if (isTag(c)) {
        if (FIGURE_MEDIA_TAGS.has(c.name)) continue;
        if (elementList(c).some((d) => FIGURE_MEDIA_TAGS.has(d.name))) strip(c);
        else if (textOf(c).trim()) detachNode(c);
      }
    }
  };
  strip(fig);
}

/** Inline elements whose boxes a flex or grid layout sets apart on screen with no white space in the HTML. */
const SPACED_INLINES = new Set(['span', 'a', 'b', 'strong', 'em', 'i', 'small', 'time', 'abbr', 'label', 'data', 'bdi']);
/** Containers whose text is verbatim: spans there are syntax colouring of one word. */
const VERBATIM = new Set(['pre', 'code', 'kbd', 'samp', 'textarea']);
const ALNUM_END = /[\p{L}\p{N}]$/u;
const ALNUM_START = /^[\p{L}\p{N}]/u;

/**
 * Puts a space between two adjacent inline elements whose texts would run together: `<span>2026</span>
 * <span>1h 54m</span>` with no white space between reads "20261h 54m" in the text, though a flex row
 * shows them apart. Only element beside element (a word broken by markup is text beside an element,
 * a drop cap `<b>W</b>ord`), never in verbatim blocks, never between two single characters (letters
 * animated one span each).
 */
export function separateFusedInlines(nodes: ParentNode[]): void {
  // An explicit stack, not recursion: a page may nest inline elements thousands deep.
  const stack: Element[] = [];
  for (const n of nodes) {
    if (isTag(n as AnyNode)) stack.push(n as Element);
    else for (const c of (n as ParentNode).children) if (isTag(c)) stack.push(c);
  }
  while (stack.length) {
    const el = stack.pop()!;
    if (VERBATIM.has(el.name)) continue;
    const kids = el.children;
    let changed = false;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (!isTag(c)) continue;
      stack.push(c);
      const next = kids[i + 1];
      if (!next || !isTag(next) || !SPACED_INLINES.has(c.name) || !SPACED_INLINES.has(next.name)) continue;
      const left = textOf(c);
      const right = textOf(next);
      if (!ALNUM_END.test(left) || !ALNUM_START.test(right)) continue;
      if (left.trim().length < 2 && right.trim().length < 2) continue;
      const space = new Text(' ');
      space.parent = el;
      kids.splice(i + 1, 0, space);
      changed = true;
      i++;
    }
    if (changed) relink(el);
  }
}

/** Least number of posts sharing a shape before their first boxes read as poster panes. */
const MIN_PANE_POSTS = 3;
/** Longest poster pane (non-space characters): a name, a rank and a few `Registered / Posts` lines. */
const MAX_PANE_CHARS = 150;
/** Least number of lines in a pane (a name and at least two profile lines). */
const MIN_PANE_LINES = 3;
/** A profile line of a poster pane: a short label, a colon, a value (`Posts: 98`, `Joined: Jan 2020`). */
const PROFILE_LINE = /^[^:]{1,30}:\s*\S/;
/** Tags a poster pane is written with (a table's head row or a list's first item is not one). */
const PANE_TAGS = new Set(['div', 'aside', 'section', 'header']);

/**
 * Removes the profile lines of per-post poster panes, keeping the poster's name: a post is an element
 * whose tag and class recur at least 3 times in `nodes` and that holds two element children, a short
 * box (≤ 150 characters, at least 3 lines, no paragraph, one of them after the first a `Label: value`
 * profile line) then the post's body, longer than the box;
 * when the boxes of every such post share tag and class, each is cut down to its first line (the name
 * above `Member / Registered: date / Posts: N`). Structure only: the same short box repeated once per
 * post with the same shape beside a longer body, whatever the board calls it. Panes are blocks (`div`,
 * `aside`, `section`, `header`): a table's head row beside its body is not one.
 */
export function dropPosterPanes(nodes: ParentNode[]): void {
  const groups = new Map<string, Element[]>();
  for (const n of nodes) {
    for (const el of isTag(n as AnyNode) ? [n as Element, ...elements(n)] : [...elements(n)]) {
      const cls = el.attribs.class;
      if (!cls || el.children.filter(isTag).length !== 2) continue;
      const key = `${el.name}.${cls}`;
      const list = groups.get(key);
      if (list) list.push(el);
      else groups.set(key, [el]);
    }
  }
  for (const posts of groups.values()) {
    if (posts.length < MIN_PANE_POSTS) continue;
    const panes: Element[] = [];
    let shape: string | undefined;
    let ok = true;
    for (const post of posts) {
      const [pane, body] = post.children.filter(isTag) as Element[];
      const key = `${pane.name}.${pane.attribs.class ?? ''}`;
      if (shape === undefined) shape = key;
      const len = nonSpaceLength(pane as AnyNode);
      if (key !== shape || !PANE_TAGS.has(pane.name) || !len || len > MAX_PANE_CHARS || nonSpaceLength(body as AnyNode) <= len || [...elements(pane)].some((e) => e.name === 'p')) {
        ok = false;
        break;
      }
      panes.push(pane);
    }
    if (!ok) continue;
    for (const pane of panes) {
      let box: Element = pane;
      for (let only = box.children.filter(isTag); only.length === 1; only = box.children.filter(isTag)) box = only[0] as Element;
      const lines = box.children.filter((c) => isTag(c) && nonSpaceLength(c as AnyNode) > 0) as Element[];
      if (lines.length < MIN_PANE_LINES) continue;
      // Profile lines read `Label: value` (Registered: 2024-01-27, Posts: 98); a pricing card's head
      // (plan, price, "per month") beside its feature list has none and stays whole.
      if (!lines.slice(1).some((line) => PROFILE_LINE.test(normalizeSpace(textOf(line as AnyNode))))) continue;
      for (const line of lines.slice(1)) detachNode(line as AnyNode);
    }
  }
}

/** Share (0-1) of the smaller rendition's words that the larger one holds too (as many times). */
const RENDITION_OVERLAP = 0.97;
/** The smaller rendition holds at least this share of the larger's words ... */
const RENDITION_MIN_SIZE_RATIO = 0.85;
/** ... and of its elements: renditions of one card are built alike (a heading and a text are a section and its summary). */
const RENDITION_MIN_SHAPE_RATIO = 0.5;
/** A cheap test first: the smaller rendition's raw text (white space included) is at least this share of the larger's. */
const RENDITION_MIN_CHARS_RATIO = 0.5;
/** Renditions hold at least this many words (shorter pairs are labels, said twice on purpose). */
const RENDITION_MIN_WORDS = 5;
const RENDITION_WORD = /[\p{L}\p{N}]+/gu;

/**
 * Removes the smaller of two renditions of one item: a block whose only children are two blocks
 * (div, section ...) saying nearly the same words, one for small screens and one for large (a listing's
 * card rendered as `mobile-card` and `desktop-card` in one list item, one with a detail line the other
 * leaves out, so `dropSiblingCopies` sees no copy; a spec sheet as `desktop` and `tablet`). The smaller
 * one goes when RENDITION_OVERLAP of its words occur in the other, it holds RENDITION_MIN_SIZE_RATIO of
 * the other's words and RENDITION_MIN_SHAPE_RATIO of its elements; the second of two equal ones goes.
 * Code is never compared (tabs of one example for two language versions). Words are read per text node,
 * so blocks written without white space between them do not fuse.
 */
export function dropRenditionPairs(nodes: ParentNode[]): void {
  // One post-order pass sums, per element, its text length (characters), elements and code; the word
  // lists are read only for pairs whose sums already match.
  const chars = new Map<Element, number>();
  const els = new Map<Element, number>();
  const code = new Set<Element>();
  const pairs: Element[] = [];
  for (const top of nodes) {
    const order = isTag(top as AnyNode) ? [...postOrder(top), top as Element] : postOrder(top);
    for (const el of order) {
      let len = 0;
      let n = 0;
      let kids = 0;
      let hasCode = el.name === 'pre' || el.name === 'code';
      for (const c of el.children) {
        if (isTag(c)) {
          kids++;
          len += chars.get(c) ?? 0;
          n += 1 + (els.get(c) ?? 0);
          if (code.has(c)) hasCode = true;
        } else if (c.type === 'text') len += (c as Text).data.length;
      }
      chars.set(el, len);
      els.set(el, n);
      if (hasCode) code.add(el);
      else if (kids === 2 && !el.children.some((c) => c.type === 'text' && !!(c as Text).data.trim())) pairs.push(el);
    }
  }
  // Outer pairs first (an ancestor comes after its descendants in post-order).
  for (let i = pairs.length - 1; i >= 0; i--) {
    const el = pairs[i];
    const [a, b] = el.children.filter(isTag) as Element[];
    if (!SECTION_TAGS.has(a.name) || !SECTION_TAGS.has(b.name)) continue;
    const ca = chars.get(a) ?? 0;
    const cb = chars.get(b) ?? 0;
    if (Math.min(ca, cb) < Math.max(ca, cb) * RENDITION_MIN_CHARS_RATIO) continue;
    const ea = els.get(a) ?? 0;
    const eb = els.get(b) ?? 0;
    if (Math.min(ea, eb) < Math.max(ea, eb) * RENDITION_MIN_SHAPE_RATIO) continue;
    const wa = wordList(a);
    const wb = wordList(b);
    const [small, large, drop] = wb.length <= wa.length ? [wb, wa, b] : [wa, wb, a];
    if (small.length < RENDITION_MIN_WORDS || small.length < large.length * RENDITION_MIN_SIZE_RATIO) continue;
    if (sharedWordCount(small, large) >= small.length * RENDITION_OVERLAP) detachNode(drop);
  }
}

/** Lower-case words of the text nodes under `node`, each text node on its own (adjacent blocks do not fuse). */
function wordList(node: ParentNode): string[] {
  const out: string[] = [];
  const stack: AnyNode[] = [...node.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') for (const w of (n as Text).data.toLowerCase().match(RENDITION_WORD) ?? []) out.push(w);
    else if (isTag(n)) for (const c of n.children) stack.push(c);
  }
  return out;
}

/** Longest post note (characters, white space collapsed). */
const MAX_NOTE_CHARS = 150;
/** A post's edit note: "Last edited by <name> on <date>", "Last edited: <date>", "Edited <date> by <name>". */
const EDIT_NOTE = /^(?:last edited\b|edited\b.{0,60}?\bby\b)/i;
/** An unrendered template binding: the whole text is `{{ expression }}` (a script framework's placeholder). */
const TEMPLATE_BINDING = /^\{\{[^{}]+\}\}$/;
const NOTE_START = /^\s*(?:\{\{|(?:last )?edited\b)/i;
const HAS_DIGIT = /\d/;

/** Whether the first non-blank child of `el` is a text that may open a post note. */
function opensNote(el: Element): boolean {
  for (const c of el.children) {
    if (c.type === 'text') {
      const data = (c as Text).data;
      if (!data.trim()) continue;
      return NOTE_START.test(data);
    }
    if (isTag(c)) return false;
  }
  return false;
}

/**
 * Removes the notes a forum adds to its posts, and template placeholders a script never filled: a
 * block (the largest wrapper saying nothing else) of at most MAX_NOTE_CHARS characters whose whole text
 * is an edit note with a date or count in it ("Last edited by jane on Tue Aug 27, 2019, edited 1 time in
 * total.", "Edited June 19, 2024 by jane") or a `{{ expression }}` binding (an AngularJS alert's `{{
 * board.errors[12].message }}` under every post). An editor's credit without a date ("Edited by Jane
 * Doe") and braces in code stay. Candidates are found by their first text, so only they are measured.
 */
export function dropPostNotes(nodes: ParentNode[]): void {
  const tops = new Set<unknown>(nodes);
  const remove: Element[] = [];
  for (const n of nodes) {
    for (const el of isTag(n as AnyNode) ? [n as Element, ...elements(n)] : elements(n)) {
      if (tops.has(el) || !opensNote(el)) continue;
      let block = el;
      let text = normalizeSpace(textOf(el));
      if (text.length > MAX_NOTE_CHARS) continue;
      const binding = TEMPLATE_BINDING.test(text);
      if (!binding && !(EDIT_NOTE.test(text) && HAS_DIGIT.test(text))) continue;
      if (inCode(el)) continue;
      for (let p = el.parent; p && isTag(p as AnyNode) && !tops.has(p); p = p.parent) {
        const t = normalizeSpace(textOf(p));
        if (t !== text) break;
        block = p as Element;
        text = t;
      }
      remove.push(block);
    }
  }
  for (const el of remove) if (el.parent) detachNode(el);
}
