/**
 * Values the fake chat server answers JSON requests with by default (test-only): the schema of a
 * request (`response_format.json_schema.schema`, else a schema shown in a message after "JSON
 * Schema:"), and a deterministic value valid against it (first enum value, `const`, empty-ish
 * strings of the minimum length, minimum numbers, required and optional properties filled).
 */
import type { ChatBody } from './openai-chat-check.ts';

/** The JSON Schema a request asks its answer to follow, or undefined for a plain chat request. */
export function schemaOfRequest(body: ChatBody): Record<string, unknown> | undefined {
  const rf = body.response_format;
  if (rf?.type === 'json_schema' && rf.json_schema?.schema) return rf.json_schema.schema as Record<string, unknown>;
  for (const m of body.messages) {
    const at = (m.content ?? '').indexOf('JSON Schema:');
    if (at < 0) continue;
    const text = (m.content ?? '').slice(at + 'JSON Schema:'.length).trim();
    try {
      return JSON.parse(text.split('\n')[0]!);
    } catch {
      // not a schema on one line: keep looking
    }
  }
  return rf?.type === 'json_object' ? {} : undefined;
}

/** A value valid against `schema` (local `$ref`s to `#/$defs` and `#/definitions` followed). */
export function sampleFromSchema(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 12) return {};
  const s = schema as Record<string, any>;
  if (typeof s.$ref === 'string') {
    const path = s.$ref.replace(/^#\//, '').split('/');
    let target: any = root;
    for (const p of path) target = target?.[p];
    return sampleFromSchema(target, root, depth + 1);
  }
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key]) && s[key].length) return sampleFromSchema(s[key].find((x: any) => x?.type !== 'null') ?? s[key][0], root, depth + 1);
  }
  if (Array.isArray(s.allOf) && s.allOf.length) return sampleFromSchema({ ...Object.assign({}, ...s.allOf), allOf: undefined }, root, depth + 1);
  const type = Array.isArray(s.type) ? (s.type.find((t: string) => t !== 'null') ?? 'null') : (s.type ?? (s.properties ? 'object' : undefined));
  switch (type) {
    case 'string':
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(s.minItems ?? 0, 1);
      return Array.from({ length: count }, () => sampleFromSchema(s.items ?? {}, root, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) out[k] = sampleFromSchema(v, root, depth + 1);
      return out;
    }
    default:
      return {};
  }
}
