/**
 * Evidence an element carries about itself, before any text is measured: landmark tags and ARIA roles,
 * and words in its `class`/`id` (split into tokens: `c-article__share-bar` -> c, article, share, bar;
 * `relatedPosts` -> related, posts). Used by the main-content extractor (parsers/html/main-content.ts).
 *
 * Kinds of hints:
 * - `junk`: share bars, related/recommended lists, comments, ads, cookie and newsletter boxes, popups,
 *   breadcrumbs, pagination, forum signatures: boilerplate wherever it sits, even inside an article.
 * - `chrome`: site chrome (header, footer, navigation, menus, sidebars): boilerplate unless the same
 *   class name also says "article/content/post..." (`article-header` is part of the article).
 * - `meta`: bylines, dates, tags, author boxes, a poster's profile box (`user` as the head word:
 *   `message-user`, not `user-review`), a post's reaction or vote counts (`post-likes`): dropped only when small.
 * - `positive`: names content containers use (article, content, post, entry, story, body, text ...).
 * - `soft`: a name whose only boilerplate words are marketing ones (`promo`, `cta`, `secondary`) or
 *   link-list ones (`dropdown`, `links`): chrome, except for a block of prose (stats.ts `softProse`).
 */
import type { AnyNode, Element } from './dom.ts';

const JUNK = new Set([
  'share', 'shares', 'sharing', 'sharebar', 'sharedaddy', 'addthis', 'addtoany', 'shariff', 'social', 'socials',
  'sociable', 'related', 'relatedposts', 'recommended', 'recommendations', 'recommendation', 'recirc',
  'recirculation', 'outbrain', 'taboola', 'readnext', 'upnext', 'comment', 'comments', 'commentlist', 'disqus',
  'respond', 'replies', 'newsletter', 'newsletters', 'subscribe', 'subscription', 'signup', 'paywall', 'regwall',
  'promo', 'promos', 'promotion', 'promoted', 'cta', 'cookie', 'cookies', 'consent', 'gdpr', 'ad', 'ads',
  'adv', 'advert', 'adverts', 'advertisement', 'advertising', 'adsense', 'adsbygoogle', 'adslot', 'adunit',
  'adbox', 'adcontainer', 'adwrapper', 'dfp', 'sponsor', 'sponsored', 'sponsors', 'breadcrumb', 'breadcrumbs',
  'popup', 'modal', 'overlay', 'toast', 'skiplink', 'pagination', 'pager', 'subnav', 'toolbar',
  'sronly', 'sr', 'visuallyhidden', 'edit', 'editsection', 'avatar', 'gravatar', 'screenreader', 'offscreen', 'trending', 'popular', 'mostread', 'mostpopular',
  'donate', 'donation', 'print', 'feedback', 'rating', 'login', 'signin', 'signature', 'signatures',
]);

/**
 * Chrome words. Not `hero`: a hero section is the page's own opening (a category's title and intro,
 * a landing page's offers and its tagline), which the WCXB ground truths keep.
 */
const CHROME = new Set([
  'nav', 'navbar', 'navigation', 'menu', 'menus', 'megamenu', 'masthead', 'header', 'footer', 'sidebar',
  'sidenav', 'aside', 'rail', 'topbar', 'bottombar', 'toc', 'tableofcontents', 'drawer', 'offcanvas',
  'dropdown', 'nocontent', 'colophon', 'copyright', 'legal', 'disclaimer', 'hamburger', 'search', 'searchbox',
  'searchform', 'logo', 'branding', 'sitemap', 'links', 'more', 'extra', 'secondary', 'banner',
]);

const META = new Set([
  'byline', 'meta', 'author', 'authors', 'bio', 'dateline', 'timestamp', 'date', 'published', 'updated', 'tags',
  'tag', 'taglist', 'tagcloud', 'categories', 'category', 'catlinks', 'keywords', 'topics', 'credits', 'postprofile', 'userinfo', 'user',
  // A post's reaction and vote counts ("79 Likes" under each post of a thread).
  'likes', 'reactions', 'vote', 'votes',
]);

const POSITIVE = new Set([
  'article', 'articlebody', 'content', 'contents', 'main', 'post', 'entry', 'body', 'story', 'text', 'prose',
  'markdown', 'richtext', 'hentry', 'blog', 'postbody', 'storybody', 'articletext', 'entrycontent',
  'documentation', 'docs', 'chapter', 'answer', 'question', 'recipe',
]);

/** Words of a poster's or member's box (forum posts): with them, `meta` names a byline, not a section. */
const USER_WORDS = new Set(['user', 'users', 'member', 'members', 'poster', 'profile', 'account']);

/** Chrome words only as the head word: `search-form` is chrome, `search-results` is a listing's content. */
const HEAD_ONLY_CHROME = new Set(['search']);

/** Modifiers after a head-only chrome word that make it name results (`search-grid`, `search-list`), not a control. */
const RESULT_MODIFIERS = new Set(['grid', 'list', 'items', 'item']);

/** Meta words only as the head word of a class name (not in ids: `classifyId`): `message-user` is a poster's pane, `user-review` is content. */
const HEAD_ONLY_META = new Set(['user']);

/** Tokens that describe layout or state, not what the element is: skipped when finding the head word. */
const MODIFIERS = new Set([
  'wrapper', 'wrap', 'container', 'inner', 'outer', 'area', 'box', 'block', 'holder', 'region', 'col', 'row',
  'left', 'right', 'top', 'bottom', 'primary', 'main', 'module', 'component', 'section', 'default', 'list',
  'items', 'item', 'group', 'panel', 'bar', 'view', 'el', 'element', 'layout', 'grid', 'flex', 'new',
]);

/** First tokens marking a state or layout class (`has-sidebar`, `with-toc`, `no-comments`): ignored. */
const STATE_PREFIX = new Set(['has', 'with', 'without', 'no', 'is', 'show', 'hide', 'js', 'u', 'l', 'layout', 'theme', 'template', 'page']);

const ARTICLEISH = new Set(['article', 'post', 'entry', 'story', 'articlebody', 'hentry', 'content', 'body']);
const HEADERISH = new Set(['header', 'banner', 'title', 'heading', 'headline']);

/** Compound class words we treat as one token. */
const JOINED = /^(sr-only|visually-hidden|screen-reader|skip-link|read-next|up-next|most-read|most-popular|ad-slot|ad-unit|sign-up|table-of-contents|no-content|article-body|story-body|post-body|rich-text|entry-content)/;

/** Splits one class name into lower-case word tokens (kebab, snake, BEM, camelCase). */
export function classTokens(name: string): string[] {
  const lower = name.toLowerCase();
  const joined = JOINED.exec(lower);
  const out = joined ? [joined[1].replace(/-/g, '')] : [];
  if (asciiWords(name, lower, out)) return out;
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !/^\d+$/.test(w));
  return [...out.slice(0, joined ? 1 : 0), ...words];
}

/**
 * The words of an ASCII class name, as classTokens' regexes cut them (at each character outside
 * a-z0-9 and between a lower-case and an upper-case letter; single characters and digit runs left out),
 * appended to `out` in one scan; false (with `out` partly filled) when the name holds other characters.
 */
function asciiWords(name: string, lower: string, out: string[]): boolean {
  let start = 0;
  let digits = true;
  let prevLower = false;
  for (let i = 0; i <= name.length; i++) {
    const c = i < name.length ? name.charCodeAt(i) : 32;
    if (c > 127) return false;
    const upper = c >= 65 && c <= 90;
    const low = c >= 97 && c <= 122;
    const digit = c >= 48 && c <= 57;
    if (!(upper || low || digit) || (upper && prevLower)) {
      if (i - start > 1 && !digits) out.push(lower.slice(start, i));
      start = upper || low || digit ? i : i + 1;
      digits = true;
    }
    if (!digit && (upper || low)) digits = false;
    prevLower = low;
  }
  return true;
}

export interface Hints {
  junk: boolean;
  chrome: boolean;
  /** Boilerplate only by soft words (`promo`, `cta`, `secondary`), set with `chrome`: prose under it is content (prune.ts). */
  soft?: boolean;
  /** A soft name holding `cta`: a call-to-action section (a heading and a line) is the page's. */
  cta?: boolean;
  meta: boolean;
  positive: boolean;
}

type Kind = 'junk' | 'chrome' | 'meta' | 'positive' | 'soft' | undefined;

/**
 * Boilerplate words that also name a marketing page's own sections (`cmp-promo__content`, `cta-block`,
 * `element__secondary`), and navigation words whose blocks are navigation only when they are links
 * (`accordion-item__dropdown`, `accordion-inner text-links`: the answers of an FAQ accordion; a menu
 * of links is link-dense and still pruned): a name whose only boilerplate words are these is `soft`,
 * chrome except for blocks of prose (prune.ts). `menu` is left out: on the WCXB split it also names
 * a shop's promotional media sections that the ground truths leave out. `banner` joins them inside a
 * name that holds one of them (SOFT_WITH).
 */
const SOFT = new Set(['cta', 'promo', 'promos', 'promotion', 'promotional', 'secondary', 'dropdown', 'links']);

/**
 * Chrome words that describe a block's look, soft when the same name holds a soft word: a `cta` or
 * `promo` banner (`cmp-cta__banner`, `promotional-banner`) is a call to action, whose prose sections
 * are the page's (a banner alone stays chrome: heroes and site banners).
 */
const SOFT_WITH = new Set(['banner']);

/** A quick test before tokenizing a soft name for `cta` (Hints.cta). */
const CTA_TEXT = /cta/i;

/** classifyName results by name: class names repeat across a page and across a site's pages. */
const kinds = new Map<string, Kind | null>();
const MAX_KINDS = 20_000;

/** Classifies one class name or id by its words; the last non-modifier word is the head word (memoized). */
export function classifyName(name: string): Kind {
  // No kind is memoized as null: one look-up for the names that have none (most).
  const known = kinds.get(name);
  if (known !== undefined) return known ?? undefined;
  if (kinds.size >= MAX_KINDS) kinds.clear();
  const kind = classify(name);
  kinds.set(name, kind ?? null);
  return kind;
}

/** Two chrome words written as one (`navheader`, `navfooter`, `footermenu`): chrome too. */
function isChromeCompound(token: string): boolean {
  if (token.length < 6 || CHROME.has(token)) return false;
  for (let i = 3; i <= token.length - 3; i++) {
    const a = token.slice(0, i);
    if (!CHROME.has(a) || HEAD_ONLY_CHROME.has(a)) continue;
    const b = token.slice(i);
    if (CHROME.has(b) && !HEAD_ONLY_CHROME.has(b)) return true;
  }
  return false;
}

function classify(name: string): Kind {
  const tokens = withoutPriceTags(classTokens(name));
  if (!tokens.length || STATE_PREFIX.has(tokens[0]) && tokens.length > 1) return undefined;
  const head = headWord(tokens);
  const anyChrome = tokens.some((t) => (CHROME.has(t) && !HEAD_ONLY_CHROME.has(t)) || isChromeCompound(t));
  const kind = classifyWords(tokens, head, anyChrome);
  if (kind !== 'junk' && kind !== 'chrome') return kind;
  // `faq_tabs-menu`, `faq-header`: the questions and answers of a service page, shown as tabs or an
  // accordion, not a menu or a page header.
  if (kind === 'chrome' && tokens.some((t) => FAQ_WORDS.has(t))) return undefined;
  const withSoft = tokens.some((t) => SOFT.has(t));
  return tokens.every((t) => SOFT.has(t) || (withSoft && SOFT_WITH.has(t)) || !(JUNK.has(t) || CHROME.has(t) || isChromeCompound(t))) ? 'soft' : kind;
}

/** Words that name a block of frequently asked questions. */
const FAQ_WORDS = new Set(['faq', 'faqs']);

/** Words before `tag` that make it a price label (`price-tag`, `on-sale-tag`, `SaleTagBlock`), not a tag list. */
const PRICE_WORDS = new Set(['price', 'sale']);

/** `tokens` without each `tag` that follows a price word: a price tag is the item's price, not its tags. */
function withoutPriceTags(tokens: string[]): string[] {
  return tokens.includes('tag') ? tokens.filter((t, j) => !(t === 'tag' && j > 0 && PRICE_WORDS.has(tokens[j - 1]))) : tokens;
}

/** The last token that is not a modifier (`wrapper`, `inner` ...), else the last token. */
function headWord(tokens: string[]): string {
  for (let i = tokens.length - 1; i >= 0; i--) if (!MODIFIERS.has(tokens[i])) return tokens[i];
  return tokens[tokens.length - 1];
}

/**
 * Whether one of the element's class names has a head-only meta word as its head word (`message-user`):
 * the poster's pane of a forum post.
 */
export function namesPosterPane(el: Element): boolean {
  const cls = el.attribs.class;
  if (!cls || !/user/i.test(cls)) return false;
  return cls.split(/\s+/).some((name) => name.length < 80 && HEAD_ONLY_META.has(headWord(classTokens(name))));
}

/**
 * Classifies an id as a class name, except that a meta word that counts only as the head word
 * (`user`) does not count in an id: a poster's pane is a class repeated per post, while an id is one
 * element's, and a generated one names a term or a section (`GLOSSARY-USER`, `LIBPQ-CONNECT-USER`);
 * nor is a table of contents' jump target (`toc_how-they-work`, `isJumpTarget`) chrome.
 */
function classifyId(id: string): Kind {
  const kind = classifyName(id);
  if (kind === 'chrome' && isJumpTarget(id)) return undefined;
  return kind === 'meta' && HEAD_ONLY_META.has(headWord(classTokens(id))) ? undefined : kind;
}

/** Least number of plain words after `toc` in an id that names a section a table of contents jumps to. */
const MIN_JUMP_SLUG_WORDS = 3;

/**
 * Whether an id is a table of contents' jump target: `toc` as the namespace of a slug of at least three
 * plain words (`toc_how-to-invest-in-index-funds`), none of them a modifier or a boilerplate word. Such
 * an id names the section the table of contents links to, not the table (`toc-container`, `toc_list`).
 */
function isJumpTarget(id: string): boolean {
  const tokens = classTokens(id);
  if (tokens[0] !== 'toc' || tokens.length <= MIN_JUMP_SLUG_WORDS) return false;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (MODIFIERS.has(t) || CHROME.has(t) || JUNK.has(t) || META.has(t)) return false;
  }
  return true;
}

/** The kind of a name from its tokens, its head word and whether any token is a chrome word. */
function classifyWords(tokens: string[], head: string, anyChrome: boolean): Kind {
  if (tokens.some((t) => JUNK.has(t))) return 'junk';
  // `search-grid`, `c-search-list`: the results of a search, not its box.
  if (HEAD_ONLY_CHROME.has(head) && tokens.slice(tokens.lastIndexOf(head) + 1).some((t) => RESULT_MODIFIERS.has(t))) return anyChrome ? 'chrome' : undefined;
  if (CHROME.has(head)) return HEADERISH.has(head) && tokens.some((t) => ARTICLEISH.has(t)) ? 'meta' : 'chrome';
  if (META.has(head)) return 'meta';
  if (POSITIVE.has(head) && !anyChrome) return 'positive';
  if (anyChrome) return 'chrome';
  if (tokens.some((t) => META.has(t) && !HEAD_ONLY_META.has(t))) return 'meta';
  if (tokens.some((t) => POSITIVE.has(t))) return 'positive';
  return undefined;
}

/**
 * Boilerplate words that name what a block says, never how the page is laid out: as a BEM modifier
 * (`cmp-richtext--disclaimer`) they mark a variant of a content block as fine print or a sign-up box.
 */
const VARIANT_WORDS = new Set([
  'disclaimer', 'disclaimers', 'legal', 'copyright', 'newsletter', 'newsletters', 'subscribe', 'subscription',
  'signup', 'donate', 'donation', 'cookie', 'cookies', 'consent', 'gdpr', 'paywall', 'sponsored',
]);

/**
 * Whether a BEM class name's modifier (the part after its last `--`) is one word that names fine print
 * or a sign-up box (`cmp-richtext--disclaimer`, `c-text--newsletter`): a variant of a content block
 * that the site marks as boilerplate, whatever content word the block's own name carries.
 */
export function namesBoilerplateVariant(name: string): boolean {
  const at = name.lastIndexOf('--');
  if (at <= 0 || at + 2 >= name.length) return false;
  return VARIANT_WORDS.has(name.slice(at + 2).toLowerCase());
}

/** The memo of hintsOf: a slot on the element (a WeakMap.set per element cost 4% of a page's conversion). */
const HINTS = Symbol('trawl.hints');
type Hinted = Element & { [HINTS]?: Hints };

const HEADING = /^h[1-6]$/;

/** Attributes that name a component the way classes do (React test ids, CMS module names). */
const NAME_ATTRS = ['data-testid', 'data-test-id', 'data-component', 'data-module', 'data-block', 'data-section'];
const NAME_ATTR_SET = new Set(NAME_ATTRS);

/**
 * Whether an id was generated from the heading the element opens with (`<section id="set-cookie-options">
 * <h2>Set-Cookie options</h2>`, or `<section id="s-more-about-forms"><span id="more-about-forms"></span>
 * <h2>More about forms</h2>` as Sphinx writes it, the empty anchor skipped): such an id names a content
 * section, not a page region (`more` is a chrome word).
 */
function isSlugId(id: string, el: Element): boolean {
  // Empty anchors before the heading (`<span id="more-about-forms"></span>`, Sphinx) are skipped.
  const first = el.children.find((c) => c.type === 'tag' && !isEmptyAnchor(c as Element)) as Element | undefined;
  if (!first || !HEADING.test(first.name)) return false;
  const tokens = classTokens(id);
  const heading = headingWords(first);
  return tokens.every((t) => heading.has(t));
}

/** An element with no element children and no text (`<span id="…"></span>`, `<a name="…"></a>`): an anchor. */
function isEmptyAnchor(el: Element): boolean {
  for (const c of el.children) if (c.type === 'tag' || (c.type === 'text' && (c as { data: string }).data.trim())) return false;
  return true;
}

function headingWords(h: Element): Set<string> {
  const words = new Set<string>();
  const stack: AnyNode[] = [...h.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') {
      for (const w of (n as { data: string }).data.toLowerCase().split(/[^a-z0-9]+/)) if (w) words.add(w);
    } else if ('children' in n) {
      stack.push(...(n as unknown as Element).children);
    }
  }
  return words;
}

/** Hints from an element's class names and id (memoized per element). */
export function hintsOf(el: Element): Hints {
  let h = (el as Hinted)[HINTS];
  if (h) return h;
  h = { junk: false, chrome: false, meta: false, positive: false };
  // One pass over the attributes (most elements have none or a few) instead of eight look-ups by name.
  const a = el.attribs;
  let cls: string | undefined;
  let id: string | undefined;
  let named = false;
  for (const k in a) {
    if (k === 'class') cls = a[k];
    else if (k === 'id') id = a[k];
    else if (NAME_ATTR_SET.has(k)) named = true;
  }
  // Most class attributes hold one name: no regex split then (the same names either way).
  const names = !cls ? [] : !ANY_SPACE.test(cls) ? (cls.length < 80 ? [cls] : []) : cls.split(/\s+/).filter((n) => n && n.length < 80);
  if (named) {
    for (const attr of NAME_ATTRS) {
      const v = a[attr];
      if (v && v.length < 80) names.push(v);
    }
  }
  const idName = id && id.length < 80 && !isSlugId(id, el) ? id : undefined;
  if (idName) names.push(idName);
  let variant = false;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const kind = idName && i === names.length - 1 ? classifyId(name) : classifyName(name);
    if (kind === 'soft') {
      if (!h.chrome) h.soft = true;
      if (CTA_TEXT.test(name) && classTokens(name).includes('cta')) h.cta = true;
      h.chrome = true;
    } else if (kind) {
      h[kind] = true;
      if (kind === 'chrome') h.soft = false;
      if ((kind === 'chrome' || kind === 'junk') && namesBoilerplateVariant(name)) variant = true;
    }
  }
  // `richtext cmp-richtext--disclaimer`: the modifier says which kind of block this one is; the
  // block's own content word (here and in the element's other names) no longer outweighs it.
  if (variant) h.positive = false;
  (el as Hinted)[HINTS] = h;
  return h;
}

const BODY_OWNER = new Set(['article', 'entry', 'post', 'story', 'blog']);
const BODY_PART = new Set(['body', 'content', 'text']);
const BODY_PART_TEXT = /body|content|text/;

/**
 * Whether the element's class or id names it the body of an article (`article-body`, `entry-content`,
 * `postBody`, `story__text`) or it carries `itemprop=articleBody`: such a container holds the whole
 * text of one article, and the page around it is not more of it.
 */
export function namesArticleBody(el: Element): boolean {
  // Memoized on the element like hintsOf: main-content.ts asks about every element of the page.
  const memo = (el as BodyNamed)[BODY_NAMED];
  if (memo !== undefined) return memo;
  return ((el as BodyNamed)[BODY_NAMED] = namesArticleBodyNow(el));
}

const BODY_NAMED = Symbol('trawl.namesArticleBody');
type BodyNamed = Element & { [BODY_NAMED]?: boolean };

function namesArticleBodyNow(el: Element): boolean {
  if (el.attribs.itemprop?.toLowerCase().includes('articlebody')) return true;
  return anyBodyName(el.attribs.class) || anyBodyName(el.attribs.id);
}

function anyBodyName(names: string | undefined): boolean {
  if (!names) return false;
  if (!ANY_SPACE.test(names)) return names.length < 80 && bodyName(names);
  for (const name of names.split(/\s+/)) if (name && name.length < 80 && bodyName(name)) return true;
  return false;
}

const ANY_SPACE = /\s/;

/** bodyName results by class name (memoized like classifyName). */
const bodyNames = new Map<string, boolean>();

function bodyName(name: string): boolean {
  let r = bodyNames.get(name);
  if (r === undefined) {
    if (bodyNames.size >= MAX_KINDS) bodyNames.clear();
    r = false;
    // A token is a piece of the lower-cased name: without a body word in it, no token is one.
    const t = BODY_PART_TEXT.test(name.toLowerCase()) ? classTokens(name) : [];
    for (let i = 0; i + 1 < t.length && !r; i++) r = BODY_OWNER.has(t[i]) && BODY_PART.has(t[i + 1]);
    bodyNames.set(name, r);
  }
  return r;
}

/**
 * Makes an element's class words count for nothing (neither boilerplate nor content): used when a
 * page shows that a boilerplate-sounding class is its layout (prune.ts `layoutClasses`).
 */
export function neutralizeHints(el: Element): void {
  (el as Hinted)[HINTS] = { junk: false, chrome: false, meta: false, positive: false };
}

const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'toolbar', 'tablist']);
const JUNK_ROLES = new Set(['dialog', 'alertdialog', 'alert', 'marquee', 'tooltip']);

/** Whether a descendant of `el` is a tab panel (`role=tabpanel`). */
function wrapsPanel(el: Element): boolean {
  const stack: AnyNode[] = [...el.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') continue;
    const e = n as Element;
    if (e.attribs.role?.toLowerCase() === 'tabpanel') return true;
    stack.push(...e.children);
  }
  return false;
}

/**
 * Whether the only meta word in the element's class names and id is the generic `meta` (a CMS's
 * `jss-meta-block-section`), with no other meta word (author, date, tags ...), no chrome or junk word
 * and no user word (a forum's `message-user-meta` box): such a name does not say "byline".
 */
export function namesGenericMetaOnly(el: Element): boolean {
  const h = hintsOf(el);
  if (!h.meta || h.junk || h.chrome || h.positive) return false;
  const names = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.split(/\s+/);
  let meta = false;
  for (const name of names) {
    if (!name || name.length >= 80) continue;
    for (const t of classTokens(name)) {
      if (t === 'meta') meta = true;
      else if (META.has(t) || USER_WORDS.has(t)) return false;
    }
  }
  return meta;
}

/** Landmark evidence from the tag and the ARIA role. */
export function landmarkOf(el: Element): 'main' | 'article' | 'chrome' | 'junk' | undefined {
  // Most elements carry neither attribute: then the tag alone decides (the same answers as below).
  if (el.attribs.role === undefined && el.attribs.itemprop === undefined) {
    switch (el.name) {
      case 'main':
        return 'main';
      case 'article':
        return 'article';
      case 'nav':
      case 'aside':
        return 'chrome';
      case 'dialog':
        return 'junk';
      default:
        return undefined;
    }
  }
  const role = (el.attribs.role ?? '').toLowerCase();
  if (role === 'main' || el.name === 'main') return 'main';
  if (el.attribs.itemprop?.toLowerCase().includes('articlebody')) return 'main';
  if (role === 'article' || el.name === 'article') return 'article';
  // A tab list is a control bar, unless it wraps its panels too (an accordion marked up as tabs).
  if (role === 'tablist') return wrapsPanel(el) ? undefined : 'chrome';
  if (CHROME_ROLES.has(role) || el.name === 'nav' || el.name === 'aside') return 'chrome';
  if (JUNK_ROLES.has(role) || el.name === 'dialog') return 'junk';
  return undefined;
}

/** Short texts that are boilerplate on their own ("Advertisement", "Share this article" ...). */
const JUNK_PHRASES =
  /^(advertisement|advertisements|ad|ads|sponsored( content)?|story continues below( advertisement)?|continue reading( below)?|read more|show more|load more|see more|share( this( article| story| post)?)?|share on \w+|tweet|print|email|click to (share|email|print)[\w ]*|related( articles| posts| stories| content)?|recommended( for you)?|you (might|may) also like|more from [\w ]+|skip to (main )?content|back to top|scroll to top|loading\W*|previous( post| article)?|next( post| article)?)$/i;

/** Whether a short text is a known boilerplate label. */
export function isJunkPhrase(text: string): boolean {
  return labelMatches(JUNK_PHRASES, text, 60);
}

/** Trailing white space and punctuation of a label ("Related:", "You may also like ›"). */
const LABEL_TAIL = /[\s:.…»›>|-]+$/;

/** Whether `text` is at most `max` characters and, trimmed of LABEL_TAIL, matches `re` (not global). */
function labelMatches(re: RegExp, text: string, max: number): boolean {
  return text.length <= max && re.test(text.trim().replace(LABEL_TAIL, ''));
}

/**
 * Headings that label a block of other pages' teasers: recommendations, "also viewed", related and
 * recently viewed items (product pages and articles end with several such carousels). "Related" with
 * any one or two words after it (Related insights, Related offerings, Related blog posts) labels such a
 * block; "Related to ..." titles a section about a subject.
 */
const RECOMMENDATION_HEADINGS =
  /^((people|customers|shoppers|others|users) (who )?(also )?(viewed|bought|purchased|searched|liked|watched)\b.*|customers also\b.*|you (may|might|will|could) (also )?(like|love|enjoy|be interested in)\b.*|related( (?!to\b)[\w-]+( [\w-]+)?)?|similar (items|products|listings|posts|articles|threads|properties)\b.*|(recently|previously) viewed\b.*|recommended( for you| products| items| articles| reading)?|explore related\b.*|more (like|from) this\b.*|(frequently|often) bought together|sponsored (items|products|links)\b.*|(more|other) (products|items) (you|from)\b.*|complete the look|shop the look|trending (now|products|items)?|popular (products|items|posts|articles)|(top|best) sellers)$/i;

/** Whether a heading's text labels a block of recommendations ("You may also like", "Similar items"). */
export function isRecommendationHeading(text: string): boolean {
  return labelMatches(RECOMMENDATION_HEADINGS, text, 80);
}

/**
 * Headings that label an author box: the writer's or the testers' short biography after a story
 * ("About the author", "Written by Jane Doe", "Meet the testers").
 */
const AUTHOR_HEADINGS = /^(about the (authors?|writers?|reviewers?|contributors?)|((article|post|story) )?(written|reviewed|fact[- ]checked|medically reviewed) by\b.*|meet the (authors?|writers?|testers?|reviewers?|experts?)|author bio(graphy)?)$/i;

/** Whether a heading's text labels an author box ("About the author", "Written by Jane Doe"). */
export function isAuthorHeading(text: string): boolean {
  return labelMatches(AUTHOR_HEADINGS, text, 80);
}

/**
 * Headings that label a product page's customer reviews or testimonials ("Customer reviews", "8 Reviews",
 * "Ratings & Reviews", "Reviews for Wool Runner", "What our customers say"). Only used on pages that
 * declare themselves a product (prune.ts): on a service page testimonials are content, and an article
 * may be a review.
 */
const REVIEW_HEADINGS =
  /^((\d[\d,.]* )?(customer |guest |user |product |verified )?(ratings? (&|and) )?reviews?( (&|and) (ratings?|questions.*))?|customer reviews? (for|of)\b.*|reviews? (for|of)\b.*|(user |customer )?testimonials?|what (our )?(customers|clients|buyers) (say|are saying|think)\b.*|rating snapshot|write a review|be the first to review\b.*)$/i;

/** Whether a heading's text labels a block of customer reviews ("Customer reviews", "Ratings & Reviews"). */
export function isReviewHeading(text: string): boolean {
  return labelMatches(REVIEW_HEADINGS, text, 80);
}
