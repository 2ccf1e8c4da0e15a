/**
 * Small DOM toolkit over htmlparser2/domhandler shared by the HTML parser, the cleaner and the
 * main-content extractor: parsing, safe serialization (entities encoded, see stack.md "HTML
 * serialization trap"), iterative traversal (no recursion, so deeply nested pages cannot overflow the
 * stack), text measures and tag sets.
 */
import render from 'dom-serializer';
import { Element, Text, isTag, isText, type AnyNode, type Document, type ParentNode } from 'domhandler';
import { buildTree } from './tree.ts';

export { Element, Text, isTag, isText };
export type { AnyNode, Document, ParentNode };

/** Whether a page is written as XHTML (XML declaration or XHTML namespace near the start). */
export function looksLikeXhtml(html: string): boolean {
  const head = html.slice(0, 2048).trimStart();
  return head.startsWith('<?xml') || /<html[^>]+xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml/i.test(head);
}

/**
 * A CDATA opener in HTML outside svg/math is a bogus comment that ends at the first `>` (HTML
 * tokenizer, "markup declaration open state"); htmlparser2 reads it as a CDATA section up to `]]>`,
 * so one stray `<![CDATA[` in a page's body (a forum theme) swallows the whole page. Openers whose
 * section holds a `>` before its `]]>` are removed up to that `>`, as a browser would; script comments
 * (`//<![CDATA[`) are left alone.
 */
const STRAY_CDATA = /(?<![/*]\s*)<!\[CDATA\[[^>]*?(?<!\]\])>/g;

/**
 * Parses an HTML string into a domhandler Document (built by tree.ts; tags and attribute names lower-cased, entities
 * decoded). XHTML pages get `<a id="x"/>` read as self-closing, as their authors meant; in HTML, a
 * stray `<![CDATA[` ends at the next `>` as in a browser.
 */
export function parseHtml(html: string): Document {
  const xhtml = looksLikeXhtml(html);
  if (!xhtml && html.includes('<![CDATA[')) html = html.replace(STRAY_CDATA, '');
  return buildTree(html, {
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
    decodeEntities: true,
    recognizeSelfClosing: xhtml,
  });
}

/** Serializes nodes to HTML with markup characters encoded and non-ASCII kept as UTF-8. */
export function serializeHtml(nodes: AnyNode | ArrayLike<AnyNode>): string {
  return render(nodes, { encodeEntities: 'utf8', decodeEntities: true });
}

/** Elements rendered inline; everything else counts as a block boundary for text measures. */
export const INLINE_TAGS = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em',
  'font', 'i', 'img', 'ins', 'kbd', 'label', 'mark', 'nobr', 'q', 's', 'samp', 'small', 'span', 'strike',
  'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr', 'picture', 'math',
]);

export const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Returns the first element named `name` in document order, or undefined. */
export function findFirst(root: ParentNode, name: string): Element | undefined {
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const node = stack.pop()!;
    if (!isEl(node)) continue;
    if (node.name === name) return node;
    const kids = node.children;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return undefined;
}

/** Whether a node is an element (`isTag`, inlined: this runs on every node of every walk). */
const isEl = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/**
 * The iterator behind `elements`: the walk of a generator function (an explicit stack; an element's
 * children are read when the walk moves past it, so a caller may change them in the loop body), as a
 * plain object, which JavaScriptCore runs about twice as fast as a generator (bench/markdown).
 */
class ElementWalk implements IterableIterator<Element> {
  private readonly stack: AnyNode[] = [];
  private last: Element | null = null;

  constructor(root: ParentNode) {
    const kids = root.children;
    for (let i = kids.length - 1; i >= 0; i--) this.stack.push(kids[i]);
  }

  next(): IteratorResult<Element> {
    const stack = this.stack;
    const last = this.last;
    if (last) {
      const kids = last.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    while (stack.length) {
      const node = stack.pop()!;
      if (!isEl(node)) continue;
      this.last = node;
      return { value: node, done: false };
    }
    this.last = null;
    return { value: undefined, done: true };
  }

  [Symbol.iterator](): IterableIterator<Element> {
    return this;
  }
}

/**
 * All descendant elements of `root` in document order (iterative pre-order walk; an element's
 * children are read when the walk moves on from it).
 */
export function elements(root: ParentNode): IterableIterator<Element> {
  return new ElementWalk(root);
}

/**
 * All descendant elements of `root` in document order, as an array (one tight walk: cheaper than
 * `elements` for a caller that does not change the tree while it reads the list).
 */
export function elementList(root: ParentNode): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const node = stack.pop()!;
    if (!isEl(node)) continue;
    out.push(node);
    const kids = node.children;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

/** Elements in post-order (children before parents), iterative. */
export function postOrder(root: ParentNode): Element[] {
  const out: Element[] = [];
  // The open elements and, per element, the index of its next child to visit.
  const open: ParentNode[] = [root];
  const next: number[] = [0];
  while (open.length) {
    const top = open.length - 1;
    const kids = open[top].children;
    let i = next[top];
    while (i < kids.length && !isEl(kids[i])) i++;
    if (i < kids.length) {
      next[top] = i + 1;
      open.push(kids[i] as Element);
      next.push(0);
      continue;
    }
    const done = open.pop()!;
    next.pop();
    if (open.length) out.push(done as Element);
  }
  return out;
}

/** Removes a node from its parent (no-op for detached nodes). */
export function detach(node: AnyNode): void {
  const parent = node.parent;
  if (!parent) return;
  const idx = parent.children.indexOf(node as never);
  if (idx >= 0) parent.children.splice(idx, 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = node.prev = node.next = null;
}

/** Replaces an element by its children (keeps the text, drops the wrapper). */
export function unwrap(el: Element): void {
  const parent = el.parent;
  if (!parent) return;
  const idx = parent.children.indexOf(el);
  const kids = el.children;
  for (const k of kids) k.parent = parent;
  parent.children.splice(idx, 1, ...kids);
  el.children = [];
  relink(parent);
  el.parent = el.prev = el.next = null;
}

/** Re-sets prev/next pointers of a parent's children after a splice. */
export function relink(parent: ParentNode): void {
  const kids = parent.children;
  for (let i = 0; i < kids.length; i++) {
    kids[i].prev = kids[i - 1] ?? null;
    kids[i].next = kids[i + 1] ?? null;
    kids[i].parent = parent;
  }
}

/** Collapses whitespace runs to one space and trims. */
export function normalizeSpace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Text content of a node (iterative; `<br>` counts as a space). */
export function textOf(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!isTag(node) && !('children' in node)) return '';
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) parts.push(n.data);
    else if (isTag(n)) {
      if (n.name === 'br') parts.push(' ');
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    } else if ('children' in n) {
      const kids = (n as ParentNode).children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return parts.join('');
}

/**
 * Non-white-space UTF-16 code units in the text of a node: `textOf(node).replace(/\s+/g, '').length`
 * without building the text (the same nodes are read; white space as `isSpaceCode`).
 */
export function nonSpaceLength(node: AnyNode): number {
  let n = 0;
  const stack: AnyNode[] = [node];
  while (stack.length) {
    const x = stack.pop()!;
    if (x.type === 'text') {
      const s = (x as Text).data;
      for (let i = 0; i < s.length; i++) if (!isSpaceCode(s.charCodeAt(i))) n++;
    } else if ('children' in x) {
      const kids = (x as ParentNode).children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return n;
}

/** Class and id of an element joined by a space (lower case), for hint matching. */
export function classAndId(el: Element): string {
  const c = el.attribs.class ?? '';
  const id = el.attribs.id ?? '';
  return (c + ' ' + id).toLowerCase();
}

/** Whether `el` has an ancestor (strict) accepted by `test`. */
export function hasAncestor(el: AnyNode, test: (a: Element) => boolean): boolean {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && test(p)) return true;
  return false;
}

/**
 * Whether a UTF-16 code unit is white space as JavaScript's `\s` and `trim` define it (WhiteSpace and
 * LineTerminator): for scans that must agree with `normalizeSpace` and the regexes without running one.
 */
export function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether `a` is a strict ancestor of `b`. */
export function isAncestor(a: AnyNode, b: AnyNode): boolean {
  for (let p = b.parent; p; p = p.parent) if (p === a) return true;
  return false;
}

/** The `body` element, or the document itself when the page has none. */
export function bodyOf(doc: Document): ParentNode {
  return findFirst(doc, 'body') ?? doc;
}
