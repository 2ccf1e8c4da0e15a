/**
 * Re-export of core/html/dom.ts, where the DOM helpers shared by parsers and formats live (issue 16):
 * parsers keep importing it from here, with the parser's own structural helpers below.
 */
import { isTag, type Element, type ParentNode } from '../../core/html/dom.ts';

export * from '../../core/html/dom.ts';

/**
 * The element siblings of `el` (itself included) of its tag and `class` attribute: a grid's items, a
 * thread's posts. Just `el` when it has no parent.
 */
export function likeSiblings(el: Element): Element[] {
  const parent = el.parent;
  if (!parent) return [el];
  const cls = el.attribs.class ?? '';
  return parent.children.filter((c): c is Element => isTag(c) && c.name === el.name && (c.attribs.class ?? '') === cls);
}

/**
 * How many of `words` also occur in `bag`, each occurrence in `bag` matched at most once (the size of
 * the two lists' multiset intersection): 0..words.length.
 */
export function sharedWordCount(words: string[], bag: string[]): number {
  const left = new Map<string, number>();
  for (const w of bag) left.set(w, (left.get(w) ?? 0) + 1);
  let hits = 0;
  for (const w of words) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      hits++;
      left.set(w, n - 1);
    }
  }
  return hits;
}

/** Whether `node` or an element above it is `pre` or `code`: verbatim text, whose braces and spacing are the text. */
export function inCode(node: ParentNode): boolean {
  for (let p: ParentNode | null = node; p; p = p.parent) if (isTag(p) && (p.name === 'pre' || p.name === 'code')) return true;
  return false;
}
