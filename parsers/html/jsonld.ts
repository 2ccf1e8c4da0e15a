/**
 * Text a page declares about itself in schema.org JSON-LD: the `articleBody` of an `Article`,
 * `NewsArticle`, `BlogPosting` ... (also inside `@graph`), and the `description` of a `Product`. Many
 * news and blog CMSs publish the full story text there; the main-content extractor uses it as evidence
 * to pick the container whose text matches it best (never as output: the page's own markup is what
 * gets converted). Shops publish the product description there; clean.ts adds it to the output only
 * when the visible page is thin and does not hold it already (a description loaded by a script).
 */
import { elements, textOf, type Document, type Element } from './dom.ts';

const MAX_SCRIPT_CHARS = 2_000_000;

/**
 * Depth-first search of a JSON-LD value for the first string `pick` returns, descending into arrays
 * and the object keys `nested` (at most 6 levels deep).
 */
function findDeclared(value: unknown, pick: (obj: Record<string, unknown>) => string | undefined, nested: readonly string[], depth = 0): string | undefined {
  if (depth > 6 || !value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findDeclared(v, pick, nested, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const obj = value as Record<string, unknown>;
  const own = pick(obj);
  if (own) return own;
  for (const key of nested) {
    const found = findDeclared(obj[key], pick, nested, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const nonBlank = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

const findArticleBody = (value: unknown) => findDeclared(value, (obj) => nonBlank(obj.articleBody), ['@graph', 'mainEntity', 'mainEntityOfPage', 'hasPart']);

const PRODUCT_TYPES = new Set(['product', 'productgroup', 'individualproduct', 'productmodel']);

function isProduct(obj: Record<string, unknown>): boolean {
  const t = obj['@type'];
  for (const v of Array.isArray(t) ? t : [t]) if (typeof v === 'string' && PRODUCT_TYPES.has(v.toLowerCase())) return true;
  return false;
}

/** The page's main entity declared as a product (top level, `@graph` or `mainEntity`; not a list's items). */
const findProduct = (value: unknown) => findDeclared(value, (obj) => (isProduct(obj) ? 'product' : undefined), ['@graph', 'mainEntity', 'mainEntityOfPage']);

const findProductDescription = (value: unknown) =>
  findDeclared(value, (obj) => (isProduct(obj) ? nonBlank(obj.description) : undefined), ['@graph', 'mainEntity', 'mainEntityOfPage']);

/** What the page's JSON-LD declares: the longest `articleBody` and the longest product `description`. */
export interface JsonLdText {
  articleBody?: string;
  productDescription?: string;
  /** Whether the page declares a `Product` as its entity (not only items of a list). */
  product?: boolean;
}

/**
 * The page's JSON-LD article body and product description, each the longest found, and whether it
 * declares a product (invalid JSON is ignored).
 */
export function jsonLdText(doc: Document): JsonLdText {
  const out: JsonLdText = {};
  for (const el of elements(doc)) {
    if (el.name !== 'script' || !/ld\+json/i.test(el.attribs.type ?? '')) continue;
    const text = textOf(el);
    if (text.length > MAX_SCRIPT_CHARS) continue;
    try {
      const json = JSON.parse(text) as unknown;
      const body = findArticleBody(json);
      if (body && (!out.articleBody || body.length > out.articleBody.length)) out.articleBody = body;
      const desc = findProductDescription(json);
      if (desc && (!out.productDescription || desc.length > out.productDescription.length)) out.productDescription = desc;
      if (!out.product && findProduct(json)) out.product = true;
    } catch {
      // Broken JSON-LD is common; it is only evidence.
    }
  }
  return out;
}


const WORD = /[\p{L}\p{N}]+/gu;

/** Bag of lower-case words. */
export function wordBag(text: string): Map<string, number> {
  const bag = new Map<string, number>();
  for (const w of text.toLowerCase().match(WORD) ?? []) bag.set(w, (bag.get(w) ?? 0) + 1);
  return bag;
}

/** Share (0-1) of the words of `text` that occur in `bag` (1 for a text without words). */
export function coveredShare(text: string, bag: ReadonlyMap<string, number>): number {
  const words = text.toLowerCase().match(WORD) ?? [];
  if (!words.length) return 1;
  let hit = 0;
  for (const w of words) if (bag.has(w)) hit++;
  return hit / words.length;
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
