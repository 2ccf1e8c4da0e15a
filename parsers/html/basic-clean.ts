/**
 * The cleanup every output gets, with or without `onlyMainContent`: drops elements that never carry
 * readable content (scripts, styles, templates, iframes, forms controls, SVG, comments), hidden
 * elements (`hidden`, `popover`, `aria-hidden="true"`, inline `display:none`/`visibility:hidden`,
 * Webflow's `w-condition-invisible` class), except closed tab and accordion panels (`role=tabpanel`, prose panels named by `aria-controls`), unless they hold
 * most of the page (anti-flash-of-unstyled-content wrappers), heading permalink anchors (`¶`), line
 * number gutters in code, tracking pixels, and flattens pathological nesting so later recursive steps
 * (serialization with dom-serializer, which recurses) cannot overflow the stack.
 */
import {
  detach,
  elements,
  HEADING_TAGS,
  inCode,
  isAncestor,
  isTag,
  nonSpaceLength,
  normalizeSpace,
  relink,
  textOf,
  type AnyNode,
  type Element,
  type ParentNode,
} from './dom.ts';

const DROP_TAGS = new Set([
  'script', 'style', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg',
  'canvas', 'link', 'meta', 'head', 'base', 'select', 'textarea', 'param', 'datalist', 'slot', 'portal',
]);

/** Deepest element nesting kept; deeper elements are unwrapped into their ancestor at this depth. */
export const MAX_DEPTH = 160;

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;
const PERMALINK_TEXT = /^(?:|¶|#|§|🔗|∞|⚓|link|permalink|anchor|\u00b6\s*)$/i;
const GUTTER = /(?:^|\s)(?:linenos?|lineno|line-numbers?(?:-rows)?|gutter|ln-num|hljs-ln-numbers)(?:\s|$)/i;

const WEBFLOW_HIDDEN = /(?:^|\s)w-condition-invisible(?:\s|$)/;
/** Utility classes that hide an element (Bootstrap's `d-none`, the common `hidden` / `hide`). */
const HIDDEN_CLASS = /(?:^|\s)(?:d-none|hidden|hide)(?:\s|$)/;

function isHidden(el: Element): boolean {
  const a = el.attribs;
  // A popover is hidden until opened (UA style `[popover]:not(:popover-open) { display: none }`).
  if (a.hidden !== undefined || a.popover !== undefined) return true;
  if (a['aria-hidden']?.toLowerCase() === 'true') return true;
  if (el.name === 'input' && a.type?.toLowerCase() === 'hidden') return true;
  // Webflow's conditional visibility: `.w-condition-invisible { display: none !important }`.
  if (a.class !== undefined && WEBFLOW_HIDDEN.test(a.class)) return true;
  // A microdata value hidden by a utility class is for machines (a post's ISO date, an author's
  // name beside the visible user card); the class alone hides blocks a script reveals, so it counts
  // only with `itemprop`.
  if (a.itemprop !== undefined && a.class !== undefined && HIDDEN_CLASS.test(a.class)) return true;
  return a.style !== undefined && HIDDEN_STYLE.test(a.style);
}

function isPermalink(el: Element): boolean {
  if (el.name !== 'a') return false;
  const parent = el.parent;
  const grand = parent?.parent;
  const inHeading = (n: typeof parent) => !!n && isTag(n) && (HEADING_TAGS.has(n.name) || n.name === 'dt');
  if (!inHeading(parent) && !(parent && isTag(parent) && parent.name === 'span' && inHeading(grand ?? null))) return false;
  const text = normalizeSpace(textOf(el));
  if (!PERMALINK_TEXT.test(text)) return false;
  const href = el.attribs.href ?? '';
  return href.startsWith('#') || /anchor|headerlink|permalink|hash-link/i.test(el.attribs.class ?? '');
}

const isPreOrCode = (n: ParentNode) => isTag(n) && (n.name === 'pre' || n.name === 'code');

function isTrackingPixel(el: Element): boolean {
  if (el.name !== 'img') return false;
  const w = el.attribs.width?.trim();
  const h = el.attribs.height?.trim();
  return (w === '0' || w === '1') && (h === '0' || h === '1' || h === undefined);
}

/**
 * Applies the always-on cleanup to `root` in place.
 * @param root the document or its `body`
 * @param minHiddenShare a hidden element holding at least this share of the text (0..1) is kept
 */
export function basicClean(root: ParentNode, minHiddenShare = 0.5): void {
  const drop: AnyNode[] = [];
  const hidden: Element[] = [];
  const noscripts: Element[] = [];
  // One walk (document order, with depth) removes the comments and finds what to drop; whether any
  // element sits at MAX_DEPTH or deeper is noted for the flattening (removals never deepen the tree).
  // Only elements are stacked, and whether one sits in a pre or code is carried down the walk.
  let deep = false;
  // The elements to visit, and per element its depth times 2 plus 1 when it sits in a pre or code.
  const stack: Element[] = [];
  const marks: number[] = [];
  pushChildren(root, 2 + (inCode(root) ? 1 : 0), stack, marks);
  while (stack.length) {
    const el = stack.pop()!;
    const mark = marks.pop()!;
    const depth = mark >> 1;
    const inPre = (mark & 1) === 1;
    pushChildren(el, ((depth + 1) << 1) | (inPre || isPreOrCode(el) ? 1 : 0), stack, marks);
    if (depth >= MAX_DEPTH) deep = true;
    const name = el.name;
    if (DROP_TAGS.has(name)) drop.push(el);
    else if (name === 'noscript') noscripts.push(el);
    else if (name === 'input' && !(el.attribs.type === 'checkbox' && el.parent && isTag(el.parent) && el.parent.name === 'li')) drop.push(el);
    else if (isHidden(el)) hidden.push(el);
    else if (isPermalink(el) || isTrackingPixel(el)) drop.push(el);
    else if (inPre && (name === 'button' || GUTTER.test(el.attribs.class ?? ''))) drop.push(el);
    else if (name === 'td' && GUTTER.test(el.attribs.class ?? '')) drop.push(el);
  }
  for (const n of drop) detach(n);
  if (noscripts.length) keepNoscriptPage(root, noscripts);
  if (hidden.length) {
    const total = nonSpaceLength(root) || 1;
    // The controlled ids matter only for hidden elements with an id: no walk for them otherwise.
    const controlled = hidden.some((el) => el.attribs.id) ? controlledIds(root) : NO_IDS;
    for (const el of hidden) {
      if (!el.parent || isCollapsedContent(el, controlled)) continue;
      const share = nonSpaceLength(el) / total;
      if (share < minHiddenShare) detach(el);
    }
  }
  if (deep) flattenDeepNesting(root);
}

const NO_IDS: ReadonlySet<string> = new Set();

/** Ids named by `aria-controls` (tabs, accordion buttons, disclosure toggles), when the page has any. */
function controlledIds(root: ParentNode): Set<string> {
  const ids = new Set<string>();
  for (const el of elements(root)) {
    const c = el.attribs['aria-controls'];
    if (c) for (const id of c.split(/\s+/)) if (id) ids.add(id);
  }
  return ids;
}

/**
 * Whether a hidden element is content a reader opens on the page: a tab panel (`role=tabpanel`:
 * product descriptions, specifications, FAQs in tabs) or a panel a control names in `aria-controls`
 * (an accordion answer, a "read more" body) that is prose rather than links (a collapsed menu is links).
 */
function isCollapsedContent(el: Element, controlled: ReadonlySet<string>): boolean {
  if (el.attribs.role?.toLowerCase() === 'tabpanel') return true;
  const id = el.attribs.id;
  if (!id || !controlled.has(id)) return false;
  let len = 0;
  let link = 0;
  for (const d of elements(el)) if (d.name === 'a') link += nonSpaceLength(d);
  len = nonSpaceLength(el);
  return len > 0 && link / len < MAX_PANEL_LINK_SHARE;
}

/** A controlled hidden panel with more of its text in links than this is a collapsed menu. */
const MAX_PANEL_LINK_SHARE = 0.5;

/**
 * `noscript` blocks are dropped (a browser running scripts never shows them), except on a page whose
 * scripted shell shows next to nothing: when the `noscript` blocks hold more text than the rest of the
 * page, they are its server-rendered content (forum software serves crawlers this way) and are kept as
 * `div`s.
 */
function keepNoscriptPage(root: ParentNode, noscripts: Element[]): void {
  const outer = noscripts.filter((n) => !noscripts.some((o) => o !== n && isAncestor(o, n)));
  const inside = outer.reduce((n, el) => n + nonSpaceLength(el), 0);
  const all = inside && nonSpaceLength(root);
  if (inside > all - inside) {
    for (const el of noscripts) el.name = 'div';
  } else {
    for (const el of outer) detach(el);
  }
}

/** Comments, directives and CDATA sections: nodes the cleanup drops. */
const dropped = (c: AnyNode) => c.type === 'comment' || c.type === 'directive' || c.type === 'cdata';

/**
 * Drops the comments, directives and CDATA sections among the children of `p`, and pushes its child
 * elements (last first, so they pop in document order) with `mark` onto the walk's stacks.
 */
function pushChildren(p: ParentNode, mark: number, stack: Element[], marks: number[]): void {
  const kids = p.children;
  let strip = false;
  for (let i = kids.length - 1; i >= 0; i--) {
    const k = kids[i];
    const t = k.type;
    if (t === 'tag' || t === 'script' || t === 'style') {
      stack.push(k as Element);
      marks.push(mark);
    } else if (t === 'comment' || t === 'directive' || t === 'cdata') strip = true;
  }
  // Most elements hold none: the child list is copied only when there is something to drop.
  if (strip) {
    p.children = kids.filter((c) => !dropped(c));
    relink(p);
  }
}

/** Unwraps every element nested deeper than MAX_DEPTH, keeping its content (iterative). */
export function flattenDeepNesting(root: ParentNode, maxDepth = MAX_DEPTH): void {
  const stack: [ParentNode, number][] = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth >= maxDepth) {
      const flat: AnyNode[] = [];
      collectLeaves(node, flat);
      node.children = flat;
      relink(node);
      continue;
    }
    for (const c of node.children) if (isTag(c)) stack.push([c, depth + 1]);
  }
}

/** Text nodes and empty elements under `node`, in document order. */
function collectLeaves(node: ParentNode, out: AnyNode[]): void {
  const stack: AnyNode[] = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (isTag(n)) {
      if (n.children.length === 0) out.push(n);
      else for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    } else if (n.type === 'text') out.push(n);
  }
}
