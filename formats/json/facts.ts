/**
 * What a page states, as facts for the deterministic `json` answer (issue 18 scope 3): each fact is
 * a label (descriptor words) and a value, with its source. Read from the raw HTML (core/html):
 * JSON-LD (`@graph` flattened), microdata (`itemscope`/`itemprop`), OpenGraph and meta tags, two-cell
 * table rows and definition lists, labelled fields ("Price: 129 USD"), a "By …" byline and the `h1`;
 * and from the markdown: a heading followed by a list (the list is the heading's value).
 * Structured items (JSON-LD, microdata) give a fact per leaf, labelled by its key, by its parent key
 * plus key, and (for `name`, `value`) by its parent key alone; words of the item's `@type` and of the
 * parent key are dropped from the key (`recipeIngredient` of a Recipe is `ingredient`).
 * Facts come in priority order: JSON-LD, microdata, meta, tables/lists, labels.
 */
import { elements, findFirst, parseHtml, textOf, type Element } from '../../core/html/dom.ts';

export type FactSource = 'json-ld' | 'microdata' | 'meta' | 'table' | 'list' | 'label' | 'heading';

export interface Fact {
  /** Descriptor texts (any one may match a schema property). */
  labels: string[][];
  value: unknown;
  source: FactSource;
  /** For a top-level key of a structured item: the key as written and which item (0: the page's main one). */
  itemKey?: { key: string; item: number };
}

/** Item types that describe the site or page rather than its subject (looked at last). */
const FRAME_TYPES = new Set(['website', 'webpage', 'breadcrumblist', 'organization', 'sitenavigationelement', 'imageobject', 'searchaction']);

/** camelCase / snake_case / kebab words, lower-case. */
export function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const typeOf = (o: Record<string, unknown>): string => {
  const t = o['@type'];
  return String(Array.isArray(t) ? t[0] : (t ?? '')).replace(/^.*[/#]/, '');
};

/** Facts of one structured item (JSON-LD object or microdata item), appended to `out`. */
let itemCount = 0;

export function itemFacts(item: Record<string, unknown>, source: FactSource, out: Fact[], parentKey: string[] = [], typeWords: string[] = words(typeOf(item)), depth = 0): void {
  if (depth > 4) return;
  for (const [key, raw] of Object.entries(item)) {
    if (key.startsWith('@')) continue;
    const keyWords = words(key).filter((w) => !typeWords.includes(w) || words(key).every((x) => typeWords.includes(x)));
    const own = keyWords.filter((w) => !parentKey.includes(w));
    const labels: string[][] = [own.length ? own : keyWords, [...parentKey, ...keyWords]];
    if (parentKey.length && ['name', 'value'].includes(key)) labels.push(parentKey);
    if (keyWords.length > 1 && keyWords.at(-1) === 'currency') labels.push(['currency']);
    if (!parentKey.length && key === 'name') labels.push(['title']);
    if (!parentKey.length && key === 'headline') labels.push(['title']);
    out.push({ labels, value: raw, source, itemKey: depth === 0 ? { key, item: itemCount } : undefined });
    const objs = (Array.isArray(raw) ? raw : [raw]).filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
    if (objs.length === 1) itemFacts(objs[0], source, out, keyWords, words(typeOf(objs[0])), depth + 1);
  }
}

function jsonLdItems(doc: ReturnType<typeof parseHtml>): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  const add = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (Array.isArray(o['@graph'])) add(o['@graph']);
      else items.push(o);
    }
  };
  for (const el of elements(doc)) {
    if (el.name !== 'script' || (el.attribs.type ?? '').toLowerCase() !== 'application/ld+json') continue;
    try {
      add(JSON.parse(textOf(el)));
    } catch {
      // a broken JSON-LD block states nothing
    }
  }
  return items;
}

function itemValue(el: Element): unknown {
  const a = el.attribs;
  if (a.itemscope !== undefined) return microdataItem(el);
  return (a.content ?? a.datetime ?? (el.name === 'a' || el.name === 'link' ? a.href : undefined) ?? (el.name === 'img' || el.name === 'meta' ? a.src : undefined) ?? textOf(el)).trim();
}

function microdataItem(scope: Element): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (scope.attribs.itemtype) out['@type'] = scope.attribs.itemtype;
  const visit = (node: Element) => {
    for (const child of node.children) {
      if (child.type !== 'tag' && child.type !== 'script' && child.type !== 'style') continue;
      const el = child as Element;
      const prop = el.attribs.itemprop;
      if (prop) {
        for (const p of prop.split(/\s+/)) {
          const v = itemValue(el);
          out[p] = out[p] === undefined ? v : [...(Array.isArray(out[p]) ? (out[p] as unknown[]) : [out[p]]), v];
        }
      }
      if (el.attribs.itemscope === undefined) visit(el);
    }
  };
  visit(scope);
  return out;
}

const LABEL = /^([A-Za-z][A-Za-z /&()-]{0,40}?)\s*:\s+(\S.{0,300})$/;

/**
 * The page's facts, in priority order.
 * @param html raw page HTML ('' for documents without HTML)
 * @param markdown the page's markdown (headings followed by lists)
 */
export function pageFacts(html: string, markdown: string): Fact[] {
  const out: Fact[] = [];
  const doc = html ? parseHtml(html) : undefined;
  if (doc) {
    const ld = jsonLdItems(doc);
    const main = [...ld.filter((i) => !FRAME_TYPES.has(typeOf(i).toLowerCase())), ...ld.filter((i) => FRAME_TYPES.has(typeOf(i).toLowerCase()))];
    itemCount = 0;
    for (const item of main) {
      itemFacts(item, 'json-ld', out);
      itemCount++;
    }
    for (const el of elements(doc)) {
      if (el.attribs.itemscope !== undefined && !el.attribs.itemprop) {
        itemFacts(microdataItem(el), 'microdata', out);
        itemCount++;
      }
    }
    for (const el of elements(doc)) {
      if (el.name !== 'meta') continue;
      const key = (el.attribs.property ?? el.attribs.name ?? '').toLowerCase();
      const content = el.attribs.content?.trim();
      if (!key || !content) continue;
      const w = words(key.replace(/^(og|article|product|twitter|book|music|video|profile):/, ''));
      const labels = [w];
      if (key === 'og:title') labels.push(['title'], ['name']);
      if (key === 'article:published_time') labels.push(['date', 'publish']);
      out.push({ labels, value: content, source: 'meta' });
    }
    for (const el of elements(doc)) {
      if (el.name === 'tr') {
        const cells = el.children.filter((c): c is Element => c.type === 'tag' && (c as Element).name !== undefined && ['td', 'th'].includes((c as Element).name));
        if (cells.length === 2) out.push({ labels: [words(textOf(cells[0]).replace(/:$/, ''))], value: textOf(cells[1]).trim(), source: 'table' });
      } else if (el.name === 'dt') {
        let next = el.next;
        while (next && next.type !== 'tag') next = next.next;
        if (next && (next as Element).name === 'dd') out.push({ labels: [words(textOf(el).replace(/:$/, ''))], value: textOf(next).trim(), source: 'list' });
      }
    }
    for (const el of elements(doc)) {
      if (!['p', 'li', 'div', 'span', 'td'].includes(el.name) || el.children.some((c) => c.type === 'tag' && ['p', 'div', 'li', 'ul', 'table'].includes((c as Element).name))) continue;
      const text = textOf(el).replace(/\s+/g, ' ').trim();
      const m = LABEL.exec(text);
      if (m && m[1].split(' ').length <= 4) out.push({ labels: [words(m[1])], value: m[2].trim(), source: 'label' });
      const by = /^(?:By|Written by|Author:?)\s+([A-Z][\p{L}.'-]+(?:\s+[A-Z][\p{L}.'-]+){0,3})(?:\s*[|,·•]|$)/u.exec(text);
      if (by) out.push({ labels: [['author']], value: by[1], source: 'label' });
    }
    const h1 = findFirst(doc, 'h1');
    if (h1) out.push({ labels: [['title'], ['name']], value: textOf(h1).trim(), source: 'heading' });
  }
  listFacts(markdown, out);
  return out;
}

/** A markdown heading followed by list items: the items are the heading's value. */
function listFacts(markdown: string, out: Fact[]): void {
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,6}\s+(.+)$/.exec(lines[i].trim());
    if (!h) continue;
    const items: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trim()) j++;
    for (; j < lines.length; j++) {
      const m = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(lines[j]);
      if (!m) break;
      items.push(m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '').trim());
    }
    if (items.length) out.push({ labels: [words(h[1])], value: items, source: 'heading' });
  }
}

/** Drops JSON-LD `@` keys (`@type`, `@id` …) from a stated value, recursively. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('@')).map(([k, x]) => [k, plain(x)]));
  return v;
}

/**
 * What the page states when no schema guides the answer: the main structured item (first JSON-LD or
 * microdata item about the page's subject) with its own keys; else the labelled facts (tables,
 * definition lists, labels, meta tags) keyed by their label in camelCase, first occurrence winning.
 */
export function statedFacts(facts: readonly Fact[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const first = facts.find((f) => f.itemKey);
  if (first) {
    for (const f of facts) if (f.itemKey && f.source === first.source && f.itemKey.item === first.itemKey!.item && !(f.itemKey.key in out)) out[f.itemKey.key] = plain(f.value);
    return out;
  }
  for (const f of facts) {
    if (!['table', 'list', 'label', 'meta'].includes(f.source) || !f.labels[0]?.length) continue;
    const key = f.labels[0].map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join('');
    if (!(key in out)) out[key] = f.value;
  }
  return out;
}
