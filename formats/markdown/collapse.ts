/**
 * Whitespace collapsing before markdown conversion, the way browsers (and turndown's
 * collapse-whitespace) treat inline text: runs of ASCII whitespace become one space, a space after a
 * space is dropped, and spaces at block edges (block elements and `<br>`) are removed. `<pre>` keeps its
 * text; a non-block void element (`<img>`, `<input>` ...) protects the space that follows it. Table
 * cells, rows and captions outside any table do not count (HTML parsers drop those tags: the converter
 * reports no edge for them). Adjacent text nodes count as one. The DOM is not changed.
 */
import type { AnyNode, Element } from '../../core/html/dom.ts';
import { BLOCK, BR, OPAQUE, VOID } from './tags.ts';

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

/**
 * The whitespace collapse, run by the converter's own walk (render.ts) as it meets texts and element
 * edges in document order, so no separate pass over the tree is needed. A kept text that ends with a
 * space may still lose it at the next block edge (or the end); until then it is "unsettled": its place
 * (list and index, and in a caption's text sink) is remembered, and inline elements that close
 * meanwhile are handed to `defer` and converted (`finish`) once it is settled, in the order they closed.
 */
export class WhitespaceCollapser<B> {
  /** A text was kept since the last block edge or void element. */
  private kept = false;
  /** After a non-block void element: the next text keeps its leading space. */
  private keepLeading = false;
  /** The unsettled text's list and index (null when none). */
  private list: unknown[] | null = null;
  private at = 0;
  private sink: string[] | null = null;
  private sinkAt = 0;
  private readonly deferred: B[] = [];

  constructor(private readonly finish: (b: B) => void) {}

  /** Whether a kept text may still change (then closing inline elements wait: `defer`). */
  get unsettled(): boolean {
    return this.list !== null;
  }

  /** A text (adjacent text nodes joined): collapsed, and pushed onto `list` (and `sink`) unless it vanishes. */
  text(raw: string, list: unknown[], sink: string[] | null): void {
    let s = collapseRun(raw);
    if ((!this.kept || this.list !== null) && !this.keepLeading && s.charCodeAt(0) === 32) s = s.slice(1);
    if (!s) return;
    this.settle();
    this.kept = true;
    list.push(s);
    sink?.push(s);
    if (s.charCodeAt(s.length - 1) === 32) {
      this.list = list;
      this.at = list.length - 1;
      this.sink = sink;
      this.sinkAt = sink ? sink.length - 1 : 0;
    }
  }

  /** An element's start or end, by its tag flags (tags.ts). */
  edge(flags: number): void {
    if (flags & BLOCK || flags & BR) {
      // Spaces around a block or <br> go.
      if (this.list) {
        const s = (this.list[this.at] as string).slice(0, -1);
        this.list[this.at] = s;
        if (this.sink) this.sink[this.sinkAt] = s;
      }
      this.kept = false;
      this.keepLeading = false;
      this.settle();
    } else if (flags & VOID) {
      // A non-block void element: the space after it stays.
      this.kept = false;
      this.keepLeading = true;
      this.settle();
    } else if (this.kept) this.keepLeading = false;
  }

  /** The end of the converted nodes: a trailing space goes (and a text left empty vanishes). */
  end(): void {
    if (this.list) {
      const s = (this.list[this.at] as string).slice(0, -1);
      if (s) {
        this.list[this.at] = s;
        if (this.sink) this.sink[this.sinkAt] = s;
      } else {
        this.list.splice(this.at, 1);
        this.sink?.splice(this.sinkAt, 1);
      }
    }
    this.settle();
  }

  /** An inline element closed while a text is unsettled: converted once it is settled. */
  defer(b: B): void {
    this.deferred.push(b);
  }

  /** The items of `from` were appended to `to` from index `offset` (a table part outside a table). */
  moved(from: unknown[], to: unknown[], offset: number): void {
    if (this.list === from) {
      this.list = to;
      this.at += offset;
    }
  }

  private settle(): void {
    this.list = null;
    this.sink = null;
    if (!this.deferred.length) return;
    for (const b of this.deferred) this.finish(b);
    this.deferred.length = 0;
  }
}
