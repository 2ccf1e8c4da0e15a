/**
 * `includeTags` / `excludeTags` (interface.md, Scrape options): CSS selectors (css-select) that keep
 * only matching elements or remove matching elements. `validateSelectors` lets the API reject a bad
 * selector with a 400 before anything is fetched; `applyIncludeTags` / `applyExcludeTags` edit a
 * parsed document in place.
 */
import { compile, selectAll } from 'css-select';
import { TrawlError } from '../errors.ts';
import { detach, relink, type Element, type ParentNode } from './dom.ts';

/** Most selectors accepted per list, and longest selector (characters). */
export const MAX_SELECTORS = 100;
export const MAX_SELECTOR_LENGTH = 1000;

/**
 * Checks that every entry is a CSS selector css-select understands.
 * @throws TrawlError BAD_REQUEST (400) naming the option and the bad selector
 */
export function validateSelectors(selectors: readonly string[] | undefined, option = 'includeTags'): void {
  if (!selectors) return;
  if (selectors.length > MAX_SELECTORS) {
    throw new TrawlError('BAD_REQUEST', `${option}: at most ${MAX_SELECTORS} selectors are allowed`);
  }
  for (const s of selectors) {
    if (typeof s !== 'string' || !s.trim() || s.length > MAX_SELECTOR_LENGTH) {
      throw new TrawlError('BAD_REQUEST', `${option}: selectors must be non-empty strings of at most ${MAX_SELECTOR_LENGTH} characters`);
    }
    try {
      compile(s);
    } catch (e) {
      throw new TrawlError('BAD_REQUEST', `${option}: invalid CSS selector "${s}": ${(e as Error).message}`, {
        details: [{ path: `/${option}`, message: `invalid CSS selector "${s}"` }],
      });
    }
  }
}

function matchAll(selectors: readonly string[], root: ParentNode, option: string): Element[] {
  validateSelectors(selectors, option);
  const seen = new Set<Element>();
  for (const s of selectors) for (const el of selectAll<ParentNode, Element>(s, root)) seen.add(el);
  return [...seen];
}

/** Removes every element matching one of `selectors` (with its content). */
export function applyExcludeTags(root: ParentNode, selectors: readonly string[]): void {
  if (!selectors.length) return;
  for (const el of matchAll(selectors, root, 'excludeTags')) detach(el);
}

/**
 * Keeps only the elements matching one of `selectors`, outermost matches only (a match inside another
 * match is not repeated), in document order; everything else under `root` is dropped.
 */
export function applyIncludeTags(root: ParentNode, selectors: readonly string[]): void {
  if (!selectors.length) return;
  const matched = new Set(matchAll(selectors, root, 'includeTags'));
  const kept: Element[] = [];
  // Document order, outermost first: walk and stop descending at a match.
  const stack = [...root.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') continue;
    const el = n as Element;
    if (matched.has(el)) {
      kept.push(el);
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
  }
  for (const el of kept) detach(el);
  root.children = kept;
  relink(root);
}
