/**
 * Schema-guided filling of the deterministic `json` answer (issue 18 scope 3): each property of the
 * request's JSON Schema is matched to the page's facts (formats/json/facts.ts) by its name, else its
 * `title`: their words, lower-cased, stemmed (Porter2) and mapped through a few synonyms (`venue` is
 * `location`, `servings` is `yield` …), must equal a fact's label as a set. The first fact in
 * priority order wins; its value is coerced to the property's type (a number must be written as
 * one; an object takes its `name`). A property no fact states is null: nothing is invented.
 * Object properties are filled from the facts under the matched item, else from the whole page;
 * arrays take a list value (or one value as a one-item list).
 */
import { stem } from 'porter2';
import { itemFacts, words, type Fact, type FactSource } from './facts.ts';

type Schema = Record<string, any>;

/** Words that name the same thing (stemmed word -> canonical stem). */
const SYNONYMS: Record<string, string> = {
  venu: 'locat', place: 'locat', where: 'locat', serv: 'yield', portion: 'yield', step: 'instruct', direct: 'instruct',
  cost: 'price', amount: 'price', headlin: 'titl', writer: 'author', byline: 'author', creator: 'author', manufactur: 'brand', make: 'brand',
  begin: 'start', when: 'start', local: 'citi', town: 'citi', number: 'count', num: 'count', summari: 'descript', abstract: 'descript',
};
/** Words that add nothing to a label when other words remain. */
const FILLER = new Set(['valu', 'aggreg', 'text', 'of', 'the', 'a', 'in', 'is']);

/** The canonical word set of a label, as a sorted key. */
export function labelKey(ws: readonly string[]): string {
  const stems = ws.map((w) => SYNONYMS[stem(w)] ?? stem(w));
  const kept = stems.filter((w) => !FILLER.has(w));
  return [...new Set(kept.length ? kept : stems)].sort().join(' ');
}

/** What was filled: schema paths and where each value came from. */
export interface FillReport {
  filled: Record<string, FactSource>;
  missing: string[];
}

interface Indexed { fact: Fact; keys: Set<string> }

function index(facts: readonly Fact[]): Indexed[] {
  return facts.map((fact) => ({ fact, keys: new Set(fact.labels.filter((l) => l.length).map(labelKey)) }));
}

function candidates(name: string, schema: Schema, pool: Indexed[]): Fact[] {
  const wanted = [labelKey(words(name))];
  if (typeof schema.title === 'string' && schema.title.split(/\s+/).length <= 4) wanted.push(labelKey(words(schema.title)));
  const out: Fact[] = [];
  for (const w of wanted) for (const f of pool) if (f.keys.has(w) && present(f.fact.value) && !out.includes(f.fact)) out.push(f.fact);
  return out;
}

const present = (v: unknown): boolean => v !== null && v !== undefined && !(typeof v === 'string' && !v.trim()) && !(Array.isArray(v) && !v.length);

const typeOfSchema = (s: Schema): string | undefined => {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.find((t: string) => t !== 'null');
  const alt = (s.anyOf ?? s.oneOf)?.find((x: Schema) => x.type && x.type !== 'null');
  return alt ? typeOfSchema(alt) : s.properties ? 'object' : s.items ? 'array' : undefined;
};
const unwrap = (s: Schema): Schema => (s.anyOf ?? s.oneOf)?.find((x: Schema) => x.type && x.type !== 'null') ?? s;

/** A value as text: objects give their `name` (or `@value`, `text`), arrays their first item. */
function asText(v: unknown): string | null {
  if (typeof v === 'string') return v.replace(/\s+/g, ' ').trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length ? asText(v[0]) : null;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return asText(o.name ?? o['@value'] ?? o.text ?? null);
  }
  return null;
}

function coerce(v: unknown, schema: Schema, report: FillReport, path: string, source: FactSource, facts: Indexed[]): unknown {
  const s = unwrap(schema);
  const type = typeOfSchema(s);
  if (type === 'array') {
    const list = Array.isArray(v) ? v : [v];
    const items = list.map((x) => coerce(x, s.items ?? {}, { filled: {}, missing: [] }, path, source, facts)).filter((x) => x !== null);
    return items.length ? items : null;
  }
  if (type === 'object') {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    const sub: Fact[] = [];
    itemFacts(v as Record<string, unknown>, source, sub);
    return fillObject(s, index(sub), report, path);
  }
  const text = asText(v);
  if (text === null) return null;
  if (type === 'number' || type === 'integer') {
    const m = /-?\d[\d,]*(?:\.\d+)?/.exec(text);
    if (!m) return null;
    const n = Number(m[0].replace(/,/g, ''));
    return Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? n : null;
  }
  if (type === 'boolean') {
    if (/^(true|yes)$/i.test(text)) return true;
    if (/^(false|no)$/i.test(text)) return false;
    return null;
  }
  if (Array.isArray(s.enum)) return s.enum.find((e: unknown) => String(e).toLowerCase() === text.toLowerCase()) ?? null;
  return text;
}

function fillObject(schema: Schema, pool: Indexed[], report: FillReport, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries<Schema>(schema.properties ?? {})) {
    const prop = unwrap(raw ?? {});
    const path = prefix ? `${prefix}.${name}` : name;
    let value: unknown = null;
    let fact: Fact | undefined;
    // The first fact in priority order whose value fits the property's type.
    for (const f of candidates(name, prop, pool)) {
      value = coerce(f.value, prop, report, path, f.source, pool);
      if (value !== null) {
        fact = f;
        break;
      }
    }
    if (!fact && typeOfSchema(prop) === 'object' && prop.properties) {
      const nested = fillObject(prop, pool, report, path);
      value = Object.values(nested).some((x) => x !== null) ? nested : null;
    }
    out[name] = value;
    if (value !== null && fact && typeOfSchema(prop) !== 'object') report.filled[path] = fact.source;
    else if (value === null && typeOfSchema(prop) !== 'object') report.missing.push(path);
  }
  return out;
}

/**
 * Fills a JSON Schema from the page's facts.
 * @param schema the request's schema (an object schema; others give `{}`)
 * @returns the value (every top-level property present, null where the page states nothing) and the report
 */
export function fillSchema(schema: Schema, facts: readonly Fact[]): { value: Record<string, unknown>; report: FillReport } {
  const report: FillReport = { filled: {}, missing: [] };
  return { value: fillObject(schema, index(facts), report, ''), report };
}
