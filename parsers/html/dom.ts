/**
 * Re-export of core/html/dom.ts, where the DOM helpers shared by parsers and formats live (issue 16):
 * parsers keep importing it from here, with the parser's own structural helpers below.
 */
import { isTag, type Element } from '../../core/html/dom.ts';

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
