/**
 * Merging the pages' answers of an extract into one value by the schema's shape, with the same rules
 * as the json format merges a long page's chunks (formats/json/model.ts): the first non-null value of
 * a field wins, objects merge key by key, arrays are concatenated and deduplicated (by JSON text).
 * Alongside, `sources` records which page URL each field came from (`showSources`): a path per
 * scalar field (`price`, `author.name`) and per array item (`products[2]`), each with the URLs of
 * the pages that stated it (a value stated by several pages lists them all, first page first).
 */

/** Field path -> URLs of the pages that stated it. */
export type Sources = Record<string, string[]>;

/** One page's answer. */
export interface PageAnswer {
  url: string;
  value: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === null || v === undefined;
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

function note(sources: Sources, path: string, url: string): void {
  const list = (sources[path] ??= []);
  if (!list.includes(url)) list.push(url);
}

/** Records every stated leaf of `value` (array items as a whole) as coming from `url`. */
function noteAll(sources: Sources, value: unknown, path: string, url: string): void {
  if (absent(value)) return;
  if (Array.isArray(value)) value.forEach((item, i) => note(sources, `${path}[${i}]`, url));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) noteAll(sources, v, join(path, k), url);
  else note(sources, path || '(root)', url);
}

function merge(a: unknown, b: unknown, path: string, url: string, sources: Sources): unknown {
  if (absent(b)) return a;
  if (absent(a)) {
    noteAll(sources, b, path, url);
    return b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const keys = a.map((x) => JSON.stringify(x));
    const out = [...a];
    for (const item of b) {
      const k = JSON.stringify(item);
      const at = keys.indexOf(k);
      if (at >= 0) {
        note(sources, `${path}[${at}]`, url);
        continue;
      }
      keys.push(k);
      out.push(item);
      note(sources, `${path}[${out.length - 1}]`, url);
    }
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v, join(path, k), url, sources);
    return out;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) note(sources, path || '(root)', url);
  return a;
}

/**
 * Merges the answers in page order (the order of the request's URLs).
 * @returns the merged value (null when no page stated anything) and its sources
 */
export function mergePageAnswers(pages: readonly PageAnswer[]): { value: unknown; sources: Sources } {
  const sources: Sources = {};
  let value: unknown = null;
  for (const page of pages) value = merge(value, page.value, '', page.url, sources);
  return { value, sources };
}
