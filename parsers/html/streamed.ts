/**
 * React streaming server rendering (Next.js app router, Remix ...) sends a page's slow parts after the
 * shell: each arrives as a hidden `<div hidden id="S:n">` at the end of the body, and a small inline
 * script moves it into its place, a `<template id="P:n">` placeholder (`$RS("S:n","P:n")`) or a
 * Suspense boundary `<!--$?--><template id="B:n"></template>fallback<!--/$-->` whose fallback
 * ("Loading paragraph...") it replaces (`$RC("B:n","S:m")`). A fetched page that the browser never ran
 * keeps the article in hidden divs (dropped by the always-on cleanup as hidden) and shows only the
 * fallbacks. This does what those scripts do, before the cleanup runs.
 */
import { detach, elementList, isTag, relink, textOf, unwrap, type AnyNode, type Element, type ParentNode } from './dom.ts';

/** The raw page holds a streamed segment (React writes exactly this markup). */
const STREAMED = /<div hidden id="?S:[0-9a-f]/;
/** The moving calls in React's inline scripts: `$RC("B:1","S:1")` (boundary, segment), `$RS("S:2","P:2")` (segment, placeholder). */
const CALL = /\$R([CS])\("([BS]:[0-9a-f]+)","([PS]:[0-9a-f]+)"/g;
const SEGMENT_ID = /^S:[0-9a-f]+$/;
const HOLE_ID = /^[BP]:[0-9a-f]+$/;
/** Without the boundary's end comment (stripped by a cache), the fallback is the next element when it is this short (characters). */
const MAX_FALLBACK_CHARS = 80;

/**
 * Moves React's streamed segments (hidden `div#S:n`) into their placeholders and boundaries under
 * `root`, dropping the boundaries' fallbacks, as the page's scripts would. The pairs come from the
 * scripts' `$RC`/`$RS` calls in `html`; a page saved without its scripts pairs ids of the same number
 * (React numbers a placeholder and its segment alike, and most boundaries too). Pages without a
 * streamed segment in the raw text pay one regular-expression test.
 * @param html the raw page, for the quick test and the scripts' calls
 */
export function resolveStreamedSegments(root: ParentNode, html: string): void {
  if (!STREAMED.test(html)) return;
  const segments = new Map<string, Element>();
  const holes = new Map<string, Element>();
  for (const el of elementList(root)) {
    const id = el.attribs.id;
    if (!id) continue;
    if (el.name === 'div' && el.attribs.hidden !== undefined && SEGMENT_ID.test(id)) segments.set(id, el);
    else if (el.name === 'template' && HOLE_ID.test(id)) holes.set(id, el);
  }
  if (!segments.size || !holes.size) return;
  const pairs: [string, string][] = [];
  const used = new Set<string>();
  for (const m of html.matchAll(CALL)) {
    const [hole, seg] = m[1] === 'C' ? [m[2], m[3]] : [m[3], m[2]];
    if (!hole.startsWith(m[1] === 'C' ? 'B:' : 'P:') || !seg.startsWith('S:')) continue;
    pairs.push([hole, seg]);
    used.add(seg);
  }
  for (const seg of segments.keys()) {
    if (used.has(seg)) continue;
    const n = seg.slice(2);
    const hole = holes.has(`P:${n}`) ? `P:${n}` : `B:${n}`;
    if (holes.has(hole)) pairs.push([hole, seg]);
  }
  // A boundary is resolved when its fallback shows text ("Loading paragraph..."): the reader saw that
  // part coming. Boundaries with an empty or spacer fallback are lazy sections below the fold
  // (recommendations, reviews), left out as the page first showed them. Placeholders are resolved
  // when they sit in resolved content.
  const reachable = new Set<Element>();
  let progress = true;
  const done = new Set<string>();
  while (progress) {
    progress = false;
    for (const [holeId, segId] of pairs) {
      if (done.has(holeId)) continue;
      const hole = holes.get(holeId);
      const seg = segments.get(segId);
      if (!hole?.parent || !seg?.parent || isInside(hole, seg)) continue;
      if (holeId.startsWith('B:') ? !dropFallback(hole) : !reachable.has(hole)) continue;
      done.add(holeId);
      progress = true;
      const kids = seg.children;
      for (const k of kids) if (isTag(k)) for (const t of [k, ...elementList(k)]) if (t.name === 'template') reachable.add(t);
      seg.children = [];
      hole.children = kids;
      relink(hole);
      unwrap(hole);
      detach(seg);
    }
  }
}

/**
 * Removes a boundary's fallback after its template: up to the `<!--/$-->` comment closing the
 * boundary, or, with comments stripped, the next element when it is short (a "Loading…" line).
 * @returns whether a fallback with text was there and is gone (an empty one is left alone)
 */
function dropFallback(hole: Element): boolean {
  let end: AnyNode | null = null;
  for (let n = hole.next; n; n = n.next) {
    if (n.type === 'comment' && (n as unknown as { data: string }).data === '/$') {
      end = n;
      break;
    }
  }
  if (end) {
    let text = '';
    for (let n = hole.next; n && n !== end; n = n.next) text += textOf(n);
    if (!text.trim()) return false;
    while (hole.next && hole.next !== end) detach(hole.next);
    return true;
  }
  let n = hole.next;
  while (n && !isTag(n) && !textOf(n).trim()) n = n.next;
  if (!n || !isTag(n) || n.name === 'template') return false;
  const len = textOf(n).trim().length;
  if (!len || len > MAX_FALLBACK_CHARS) return false;
  detach(n);
  return true;
}

function isInside(a: AnyNode, b: AnyNode): boolean {
  for (let p: ParentNode | null = a.parent; p; p = p.parent) if (p === b) return true;
  return false;
}
