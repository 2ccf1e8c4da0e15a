/**
 * Article text a page declares about itself: the `articleBody` of its schema.org JSON-LD (`Article`,
 * `NewsArticle`, `BlogPosting` ..., also inside `@graph`). Many news and blog CMSs publish the full
 * story text there; the main-content extractor uses it as evidence to pick the container whose text
 * matches it best (never as output: the page's own markup is what gets converted).
 */
import { elements, textOf, type Document, type Element } from './dom.ts';

const MAX_SCRIPT_CHARS = 2_000_000;

function findArticleBody(value: unknown, depth = 0): string | undefined {
  if (depth > 6 || !value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findArticleBody(v, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const obj = value as Record<string, unknown>;
  if (typeof obj.articleBody === 'string' && obj.articleBody.trim()) return obj.articleBody;
  for (const key of ['@graph', 'mainEntity', 'mainEntityOfPage', 'hasPart']) {
    const found = findArticleBody(obj[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The longest JSON-LD `articleBody` of the page, or undefined (invalid JSON is ignored). */
export function jsonLdArticleBody(doc: Document): string | undefined {
  let best: string | undefined;
  for (const el of elements(doc)) {
    if (el.name !== 'script' || !/ld\+json/i.test(el.attribs.type ?? '')) continue;
    const text = textOf(el);
    if (text.length > MAX_SCRIPT_CHARS) continue;
    try {
      const body = findArticleBody(JSON.parse(text));
      if (body && (!best || body.length > best.length)) best = body;
    } catch {
      // Broken JSON-LD is common; it is only evidence.
    }
  }
  return best;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Bag of lower-case words. */
export function wordBag(text: string): Map<string, number> {
  const bag = new Map<string, number>();
  for (const w of text.toLowerCase().match(WORD) ?? []) bag.set(w, (bag.get(w) ?? 0) + 1);
  return bag;
}

/** Word-overlap F1 of an element's text against a reference bag. */
export function overlapF1(el: Element, reference: Map<string, number>, referenceSize: number): number {
  const bag = wordBag(textOf(el));
  let size = 0;
  let hit = 0;
  for (const [w, n] of bag) {
    size += n;
    hit += Math.min(n, reference.get(w) ?? 0);
  }
  if (!size || !referenceSize || !hit) return 0;
  const p = hit / size;
  const r = hit / referenceSize;
  return (2 * p * r) / (p + r);
}
