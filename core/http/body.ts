/**
 * The request body reader of every JSON route (issue 15 items 2, 10, 12): reads the body as it
 * arrives and stops at the byte limit (bodies without Content-Length included), refuses nesting past
 * `MAX_JSON_DEPTH` and more than `MAX_JSON_VALUES` values before parsing, and refuses NUL characters and unpaired surrogates in any string or
 * key (Postgres cannot store them) with a 400 naming the field path. Runs as Elysia's parse hook,
 * so schema validation only ever sees bounded, storable JSON.
 */
import { TrawlError } from '../errors.ts';

/** Deepest nesting of arrays and objects accepted in a JSON body (the body itself is level 1). */
export const MAX_JSON_DEPTH = 64;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * Reads a body stream, counting bytes as they arrive.
 * @param maxBytes limit in bytes; one byte more is refused
 * @throws TrawlError PAYLOAD_TOO_LARGE (413) as soon as the limit is passed (the stream is cancelled)
 */
export async function readLimited(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new TrawlError('PAYLOAD_TOO_LARGE', `The request body is over ${maxBytes} bytes; at most ${maxBytes} bytes are accepted.`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Most array items plus object entries accepted in a JSON body. Parsing, checking and storing a body
 * costs time per value on the one event loop: 400,000 keys held /health for ~0.5 s. A batch of this
 * many URLs is still far past any real request.
 */
export const MAX_JSON_VALUES = 200_000;

/**
 * The shape of JSON text, counted without parsing (strings skipped): the deepest nesting of `[`/`{`
 * and the number of array items plus object entries (approximately: commas and openings). Stops as
 * soon as a limit is passed, so the counts are then at most one past it.
 */
export function jsonShape(text: string, limits = { depth: MAX_JSON_DEPTH, values: MAX_JSON_VALUES }): { depth: number; values: number } {
  let depth = 0;
  let max = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max && (max = depth) > limits.depth) break;
      if (++values > limits.values) break;
    } else if (c === 93 || c === 125) depth--;
    else if (c === 44 && ++values > limits.values) break;
  }
  return { depth: max, values };
}

/** The deepest nesting of `[`/`{` in JSON text (see `jsonShape`). */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  return jsonShape(text, { depth: limit, values: Number.POSITIVE_INFINITY }).depth;
}

/** A JSON Pointer segment (RFC 6901), shortened for messages. */
function segment(key: string | number): string {
  const s = String(key).replace(/~/g, '~0').replace(/\//g, '~1');
  return s.length > 64 ? `${s.slice(0, 64)}…` : s;
}

/** Why a string cannot be stored, or undefined. */
function stringProblem(s: string): string | undefined {
  if (s.includes('\0')) return 'contains a NUL character (\\u0000)';
  if (!s.isWellFormed()) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

/**
 * Refuses NUL characters and unpaired surrogates in every string and key of a parsed JSON value.
 * Recursion is bounded by the depth check that runs first.
 * @param what what the value is, for the message ("request body", "options")
 * @throws TrawlError BAD_REQUEST naming the field path (`/scrapeOptions/headers/x`)
 */
export function assertStorableStrings(value: unknown, what = 'request body', path = ''): void {
  if (typeof value === 'string') {
    const problem = stringProblem(value);
    if (problem) throw new TrawlError('BAD_REQUEST', `Invalid ${what}: ${path || '/'} ${problem}; such text cannot be stored.`, { details: [{ path: path || '/', message: problem }] });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) assertStorableStrings(value[i], what, `${path}/${i}`);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    const problem = stringProblem(k);
    if (problem) throw new TrawlError('BAD_REQUEST', `Invalid ${what}: a key in ${path || '/'} ${problem}; such text cannot be stored.`, { details: [{ path: path || '/', message: `key ${problem}` }] });
    assertStorableStrings(v, what, `${path}/${segment(k)}`);
  }
}

/**
 * Parses a JSON body within the limits above.
 * @throws TrawlError BAD_REQUEST (too deep, too many values, NUL or surrogate), BAD_REQUEST_INVALID_JSON (not JSON)
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  const shape = jsonShape(text);
  if (shape.depth > MAX_JSON_DEPTH) {
    throw new TrawlError('BAD_REQUEST', `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels; at most ${MAX_JSON_DEPTH} are accepted.`);
  }
  if (shape.values > MAX_JSON_VALUES) {
    throw new TrawlError('BAD_REQUEST', `The request body has more than ${MAX_JSON_VALUES} values (array items and object entries); at most ${MAX_JSON_VALUES} are accepted.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TrawlError('BAD_REQUEST_INVALID_JSON', 'The request body is not valid JSON. Send a JSON object with Content-Type: application/json.');
  }
  assertStorableStrings(value);
  return value;
}

/**
 * Elysia parse hook for the JSON routes: returns the checked body, or null when the request has no
 * body (null, not undefined, so that Elysia does not try its own parser on the empty body). Any other
 * content type is refused: these routes take JSON only.
 * @param maxBytes the body limit (`TRAWL_MAX_BODY_BYTES`), bytes
 * @throws TrawlError PAYLOAD_TOO_LARGE, BAD_REQUEST, BAD_REQUEST_INVALID_JSON
 */
export async function readJsonBody(request: Request, contentType: string, maxBytes: number): Promise<unknown> {
  if (!request.body) return null;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared === 0) return null;
  if (!JSON_TYPE.test(contentType.trim())) {
    throw new TrawlError('BAD_REQUEST', `This route takes a JSON body, not ${contentType || 'a body without Content-Type'}. Send Content-Type: application/json.`);
  }
  const bytes = await readLimited(request.body, maxBytes);
  if (bytes.byteLength === 0) return null;
  return parseJsonBody(bytes);
}
