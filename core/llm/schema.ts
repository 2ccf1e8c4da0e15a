/**
 * JSON Schema validation of model answers (ajv): draft-07 by default, 2019-09 and 2020-12 when the
 * schema's `$schema` names them (zod 4's `toJSONSchema` emits 2020-12). Validators are cached per
 * schema text. `format` keywords are not checked (a model writing a date slightly differently is not
 * worth a repair turn); unknown keywords are allowed. Also: reading a JSON value out of a model's
 * text (code fences and prose around one object or array are tolerated).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { TrawlError } from '../errors.ts';

const options = { strict: false, allErrors: true, validateFormats: false } as const;
let engines: { draft7: Ajv; draft2019: Ajv; draft2020: Ajv } | undefined;
const cache = new Map<string, ValidateFunction>();
const CACHE_SIZE = 200;

function engineFor(schema: Record<string, unknown>): Ajv {
  engines ??= { draft7: new Ajv(options), draft2019: new Ajv2019(options), draft2020: new Ajv2020(options) };
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return engines.draft2020;
  if (dialect.includes('2019-09')) return engines.draft2019;
  return engines.draft7;
}

/**
 * A validator for `schema`, compiled once.
 * @throws TrawlError BAD_REQUEST naming the schema's problem when it is not a usable JSON Schema
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  let validate: ValidateFunction;
  try {
    const engine = engineFor(schema);
    // `$id`s would collide between requests; the cache key is the whole text instead.
    const { $id: _id, ...rest } = schema;
    validate = engine.compile(rest);
  } catch (e) {
    throw new TrawlError('BAD_REQUEST', `The JSON schema is not valid: ${(e as Error).message}`);
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, validate);
  return validate;
}

/** The validation errors of the last call of `validate`, one line each (`/price: must be number`). */
export function describeErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).slice(0, 20).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` "${(e.params as { additionalProperty?: string }).additionalProperty}"` : '';
    return `${where}: ${e.message ?? e.keyword}${extra}`;
  });
}

/**
 * Reads one JSON value from a model's text.
 * @returns the value, or `error` saying why the text is not JSON
 */
export function parseModelJson(text: string): { value?: unknown; error?: string } {
  const trimmed = text.trim();
  if (!trimmed) return { error: 'the answer is empty' };
  const attempts = [trimmed];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed)?.[1];
  if (fenced) attempts.push(fenced.trim());
  const start = trimmed.search(/[{[]/);
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  if (start >= 0 && end > start) attempts.push(trimmed.slice(start, end + 1));
  let error = '';
  for (const candidate of attempts) {
    try {
      return { value: JSON.parse(candidate) };
    } catch (e) {
      error ||= (e as Error).message;
    }
  }
  return { error: `the answer is not JSON (${error})` };
}
