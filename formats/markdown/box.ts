/**
 * The converter's per-element record (render.ts): a frame of the explicit stack while the element's
 * children are walked, then its result: converted content (as core text plus the newlines around it, so
 * parents can merge line breaks without rescanning long strings), the whitespace at the edges of its
 * text content (for turndown's flanking-whitespace rule), and the context its rules need.
 */
import { isSpaceCode, isTag, type AnyNode, type Element } from '../../core/html/dom.ts';
import { textChildren } from './collapse.ts';
import type { RuleContext, Scope } from './rules.ts';
import { BLOCK, CAPTION, CELL, CODE, LINK, MEANINGFUL, PART, REMOVE, SECTION, TABLE, VOID, tagFlags } from './tags.ts';
import { tableInfo } from './tables.ts';

const NO_NODES: AnyNode[] = [];
const NO_ITEMS: (string | Box)[] = [];
const NEWLINES = ['', '\n', '\n\n', '\n\n\n', '\n\n\n\n'];

/** `n` newlines. */
export const newlines = (n: number) => (n < NEWLINES.length ? NEWLINES[n] : '\n'.repeat(n));

/** One element (or the root above the converted nodes, `el` null). */
export class Box implements Scope {
  /** Tag flags (tags.ts). */
  flags = 0;
  /** Next child of `kids` to walk. */
  i = 0;
  kids: ArrayLike<AnyNode>;
  /** Kept children so far: collapsed texts and finished elements. */
  items: (string | Box)[] = [];
  /** Converted content without leading/trailing newlines ('' when unused: blank or removed elements). */
  core = '';
  /** Newlines before `core` (0-2; 0 when `core` is empty). */
  nlLead = 0;
  /** Newlines after `core` (all of the content when `core` is empty). */
  nlTrail = 0;
  /** Text content (after collapsing) is only whitespace; then `lead` and `trail` both hold all of it. */
  allWs = true;
  /** Whitespace the text content starts with. */
  lead = '';
  /** Whitespace the text content ends with. */
  trail = '';
  /** The element or a descendant is void or meaningful when blank (so it is not blank). */
  vm: boolean;
  /** Rendered on its own lines (no flanking whitespace). */
  block: boolean;
  /** A table part outside a table: its children count as its parent's, as HTML parsers drop such tags. */
  plain: boolean;
  /** A descendant is a link with a target (a link holding one is rendered as its content: the inner ones win). */
  links = false;
  /** Inside `<code>`: text is not escaped. */
  code: boolean;
  /** Inside an element whose content is dropped: only the text edges are tracked. */
  skip: boolean;
  table: Element | null;
  dataCell: boolean;
  /** Collects the text of a `<caption>` (for the table rule). */
  sink: string[] | null;

  constructor(
    public el: Element | null,
    public up: Box | null,
    ctx: RuleContext,
    f = 0,
    roots: ArrayLike<AnyNode> = NO_NODES,
  ) {
    if (!el || !up) {
      this.kids = roots;
      this.vm = this.code = this.skip = this.dataCell = this.block = this.plain = false;
      this.table = this.sink = null;
      return;
    }
    this.flags = f;
    this.kids = textChildren(el, f);
    this.plain = (f & PART) !== 0 && up.table === null;
    this.vm = !this.plain && (f & (VOID | MEANINGFUL)) !== 0;
    this.block = !this.plain && (f & BLOCK) !== 0;
    this.code = up.code || (f & CODE) !== 0;
    this.skip = up.skip || (f & REMOVE) !== 0;
    this.table = f & TABLE || (up.table === null && f & SECTION) ? el : up.table;
    this.dataCell = f & CELL ? !this.skip && up.table !== null && !tableInfo(up.table, ctx.tables).layout : up.dataCell;
    this.sink = f & CAPTION ? [] : up.sink;
  }

  /** The converted content as turndown's rules see it (core with its newlines). */
  content(): string {
    return this.nlLead || this.nlTrail ? newlines(this.nlLead) + this.core + newlines(this.nlTrail) : this.core;
  }

  /** Drops the children once converted (they are not needed any more). */
  release(): void {
    this.items = NO_ITEMS;
  }
}

/** Extends the text edges of `b` by a text (children are added in order). */
export function addText(b: Box, s: string): void {
  const n = s.length;
  if (!n) return;
  let p = 0;
  while (p < n && isSpaceCode(s.charCodeAt(p))) p++;
  if (p === n) {
    if (b.allWs) b.lead += s;
    else b.trail += s;
    return;
  }
  let q = n;
  while (isSpaceCode(s.charCodeAt(q - 1))) q--;
  if (b.allWs) {
    if (p) b.lead += s.slice(0, p);
    b.allWs = false;
  }
  b.trail = q === n ? '' : s.slice(q);
}

/** Extends the text edges (and flags) of `b` by a finished child element. */
export function addChild(b: Box, c: Box): void {
  if (c.vm) b.vm = true;
  if (c.links || (c.flags & LINK && c.el!.attribs.href?.trim())) b.links = true;
  if (c.allWs) {
    if (c.lead) addText(b, c.lead);
  } else {
    if (b.allWs) {
      b.lead += c.lead;
      b.allWs = false;
    }
    b.trail = c.trail;
  }
}

/** Text edges of a `<pre>` from its raw text, and whether it holds void/meaningful elements. */
export function preStats(b: Box, pre: Element): void {
  const parts: string[] = [];
  const stack: AnyNode[] = [...pre.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') parts.push((n as { data: string }).data);
    else if (isTag(n)) {
      const el = n;
      const f = tagFlags(el.name);
      if (f & (VOID | MEANINGFUL)) b.vm = true;
      if (el.name !== 'template') for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
    }
  }
  let text = parts.join('');
  if (pre.children[0]?.type === 'text' && text.charCodeAt(0) === 10) text = text.slice(1); // as HTML parsers do
  addText(b, text);
  if (b.allWs) b.trail = b.lead;
  b.sink?.push(text);
}
