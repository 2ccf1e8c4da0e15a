/**
 * Whitespace collapsing before markdown conversion, the way browsers (and turndown's
 * collapse-whitespace) treat inline text: runs of ASCII whitespace become one space, a space after a
 * space is dropped, and spaces at block edges (block elements and `<br>`) are removed. `<pre>` keeps its
 * text; a non-block void element (`<img>`, `<input>` ...) protects the space that follows it. Table
 * cells, rows and captions outside any table do not count (HTML parsers drop those tags). The DOM is not
 * changed: the result is one entry per text node in document order (see `textChildren`; adjacent text
 * nodes count as one), `null` for a text node that collapses to nothing. Iterative: any depth is fine.
 */
import { isTag, type AnyNode, type Element } from '../../core/html/dom.ts';
import { BLOCK, BR, OPAQUE, PART, SECTION, TABLE, VOID, tagFlags } from './tags.ts';

const NONE: AnyNode[] = [];

/**
 * The children the converter walks: none for `<pre>` (its text is taken raw) and `<template>` (an HTML
 * parser keeps its content out of the tree), the element's children otherwise.
 */
export function textChildren(el: Element, flags: number): AnyNode[] {
  return flags & OPAQUE ? NONE : el.children;
}

/** Whitespace runs that change when collapsed (a lone space stays): fewer matches than `[ \t\r\n]+`. */
const COLLAPSIBLE = /[ \t\n\r]{2,}|[\t\n\r]/g;

/**
 * `text` with every run of ASCII whitespace collapsed to one space. A scan finds whether any run
 * changes (most short texts hold none); only then the regex replaces, which builds a flat string (a
 * string built by concatenation is a rope that every later read flattens).
 */
export function collapseRun(text: string): string {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 32) continue;
    if (c === 10 || c === 9 || c === 13) return text.replace(COLLAPSIBLE, ' ');
    if (c === 32 && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d === 32 || d === 10 || d === 9 || d === 13) return text.replace(COLLAPSIBLE, ' ');
    }
  }
  return text;
}

// Events of the document-order walk: a text (its index, >= 0) or an element edge.
const EDGE = -1; // block or <br>: spaces around it go
const KEEP = -2; // non-block void element: the space after it stays
const INLINE = -3;

/** The walk's findings, in document order of the visited nodes (see `textChildren`). */
export interface Collapsed {
  /** Collapsed text per text node; `null` where the node vanishes. */
  texts: (string | null)[];
  /** Tag flags (tags.ts) per element. */
  flags: number[];
}

/** Collapses the whitespace of every text node under `roots` (see file header). */
export function collapseWhitespace(roots: ArrayLike<AnyNode>): Collapsed {
  const raw: string[] = [];
  const flags: number[] = [];
  const events: number[] = [];
  let tables = 0; // open tables (or table-less sections)
  let lastText: AnyNode | null = null;
  const stack: AnyNode[] = [];
  const exits: number[] = []; // per stack entry: 0 to enter, else the event to emit on exit (+ table flag)
  for (let i = roots.length - 1; i >= 0; i--) {
    stack.push(roots[i]);
    exits.push(0);
  }
  while (stack.length) {
    const node = stack.pop()!;
    const exit = exits.pop()!;
    if (exit) {
      lastText = null;
      events.push(exit >> 1);
      if (exit & 1) tables--;
      continue;
    }
    if (node.type === 'text') {
      // Adjacent text nodes (left by DOM edits; a parser merges them) count as one.
      if (node.prev !== null && node.prev === lastText) raw[raw.length - 1] += (node as { data: string }).data;
      else {
        events.push(raw.length);
        raw.push((node as { data: string }).data);
      }
      lastText = node;
      continue;
    }
    lastText = null;
    if (!isTag(node)) continue;
    const f = tagFlags(node.name);
    flags.push(f);
    const kids = textChildren(node, f);
    if (f & PART && tables === 0) {
      // A table part outside a table: no element for an HTML parser, so no event; only its children.
      for (let i = kids.length - 1; i >= 0; i--) {
        stack.push(kids[i]);
        exits.push(0);
      }
      continue;
    }
    const kind = (f & BLOCK) || f & BR ? EDGE : f & VOID ? KEEP : INLINE;
    events.push(kind);
    if (!kids.length) continue;
    const table = f & TABLE || (tables === 0 && f & SECTION) ? 1 : 0;
    tables += table;
    stack.push(node);
    exits.push((kind << 1) | table);
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push(kids[i]);
      exits.push(0);
    }
  }
  const out: (string | null)[] = raw;
  for (let k = 0; k < raw.length; k++) raw[k] = collapseRun(raw[k]);
  let prev = -1; // index in `out` of the last kept text, -1 after a block edge
  let keepLeading = false;
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    if (e >= 0) {
      let text = out[e]!;
      if ((prev < 0 || endsWithSpace(out[prev]!)) && !keepLeading && text.charCodeAt(0) === 32) text = text.slice(1);
      if (text) prev = e;
      out[e] = text || null;
    } else if (e === EDGE) {
      if (prev >= 0 && endsWithSpace(out[prev]!)) out[prev] = out[prev]!.slice(0, -1);
      prev = -1;
      keepLeading = false;
    } else if (e === KEEP) {
      prev = -1;
      keepLeading = true;
    } else if (prev >= 0) keepLeading = false;
  }
  if (prev >= 0 && endsWithSpace(out[prev]!)) out[prev] = out[prev]!.slice(0, -1) || null;
  return { texts: out, flags };
}

const endsWithSpace = (s: string) => s.charCodeAt(s.length - 1) === 32;
