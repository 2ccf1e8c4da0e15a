import { connect } from 'node:net';

/**
 * Bad request bodies for the input fuzz (issue 15): wrongly typed and huge `headers`, deep nesting,
 * NUL and unpaired surrogates, null objects, wrong types, bodies that are not JSON objects, and
 * chunked bodies over the limit. `fuzzCases(path, 'sample')` is the small deterministic set the test
 * suite posts to every POST route (test/e2e/input-fuzz.test.ts); `'full'` is the set of
 * bench/security/fuzz.ts (thousands of requests over all routes). Deterministic: no randomness.
 */

/** One request to send. */
export interface FuzzCase {
  name: string;
  /** The raw body text (JSON unless `contentType` says otherwise). */
  body: string;
  contentType: string;
  /** Send with Transfer-Encoding: chunked and no Content-Length, repeating `body` to `chunkedBytes`. */
  chunkedBytes?: number;
}

export type FuzzSize = 'sample' | 'full';

/** Where the fuzz's otherwise valid requests point when the caller gives no fixture site. */
const DEFAULT_TARGET = 'http://127.0.0.1:9/';
/** Fields routes read, where bad values are put (a superset of any route's fields). */
const FIELDS = [
  'url', 'urls', 'query', 'prompt', 'formats', 'headers', 'scrapeOptions', 'webhook', 'actions', 'parsers', 'location',
  'robotsUserAgent', 'appendToId', 'note', 'jobId', 'endpoint', 'code', 'language', 'timeout', 'limit', 'search',
  'jsonOptions', 'changeTrackingOptions', 'extract', 'profile', 'sources', 'categories', 'includePaths', 'excludePaths',
  'maxDiscoveryDepth', 'sitemap', 'integration', 'origin', 'maxAge', 'waitFor', 'redactPII', 'threatProtection',
  'ignoreInvalidURLs', 'maxConcurrency', 'delay', 'tbs', 'issues', 'command', 'args',
];
const SAMPLE_FIELDS = ['url', 'urls', 'query', 'scrapeOptions', 'webhook', 'formats', 'actions', 'headers', 'location', 'note'];

const json = (name: string, value: unknown): FuzzCase => ({ name, body: JSON.stringify(value), contentType: 'application/json' });
const raw = (name: string, body: string, contentType = 'application/json'): FuzzCase => ({ name, body, contentType });

/** Bad `headers` values. */
function headerValues(size: FuzzSize): [string, unknown][] {
  const big = size === 'full' ? 1_000_000 : 20_000;
  const entries = size === 'full' ? 100_000 : 2_000;
  const values: [string, unknown][] = [
    ['string', 'x'.repeat(big)],
    ['number', 12345],
    ['array', Array.from({ length: 1000 }, (_, i) => `h${i}: v`)],
    ['null', null],
    ['many entries', Object.fromEntries(Array.from({ length: entries }, (_, i) => [`x-h${i}`, 'v']))],
    ['huge value', { 'x-a': 'v'.repeat(big) }],
  ];
  if (size === 'full') {
    values.push(
      ['boolean', true],
      ['nested', { 'x-a': { b: 'c' } }],
      ['number value', { 'x-a': 1 }],
      ['bad name', { 'a b': 'c' }],
      ['crlf', { 'x-a': 'v\r\nx-b: 1' }],
      ['nul value', { 'x-a': 'v\u0000' }],
      ['empty name', { '': 'v' }],
      ['unicode name', { 'ä': 'v' }],
    );
  }
  return values;
}

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` deep, as text. */
function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/**
 * The cases for one route path.
 * @param maxBodyBytes the server's body limit (chunked cases go past it)
 * @param target a URL that answers with a page, so that the otherwise valid requests succeed
 */
export function fuzzCases(size: FuzzSize, maxBodyBytes: number, target = DEFAULT_TARGET): FuzzCase[] {
  const TARGET = target;
  /** A plausible valid body for any route: the fuzz changes one part of it at a time. */
  const base = (): Record<string, unknown> => ({
    url: TARGET, urls: [TARGET], query: 'fuzz', endpoint: 'scrape', jobId: '01900000-0000-7000-8000-000000000000', code: '1', limit: 1, timeout: 5000,
  });

  const out: FuzzCase[] = [];
  const fields = size === 'full' ? FIELDS : SAMPLE_FIELDS;

  // Headers, where scrape options, crawl scrapeOptions and webhooks take them.
  for (const [name, h] of headerValues(size)) {
    out.push(json(`headers ${name}`, { ...base(), headers: h }));
    if (size === 'full') {
      out.push(json(`scrapeOptions.headers ${name}`, { ...base(), scrapeOptions: { headers: h } }));
      out.push(json(`webhook.headers ${name}`, { ...base(), webhook: { url: TARGET, headers: h } }));
    }
  }

  // Deep nesting: the whole body, and inside a field.
  const depths = size === 'full' ? [65, 1_000, 20_000, 50_000] : [65, 20_000];
  for (const d of depths) {
    out.push(raw(`nested array ${d}`, nested(d, 'array')));
    out.push(raw(`nested object ${d}`, nested(d, 'object')));
    if (size === 'full') for (const f of fields) out.push(raw(`${f} nested ${d}`, `{"url":"${TARGET}","${f}":${nested(d, 'array')}}`));
  }

  // NUL and unpaired surrogates in every field, a key, and deep in an array.
  const bad = size === 'full' ? ['a\u0000b', 'a\ud800b', '\udc00', 'an escaped \\u0000'] : ['a\u0000b', 'a\ud800b'];
  for (const s of bad) {
    for (const f of fields) out.push(json(`${f} ${JSON.stringify(s)}`, { ...base(), [f]: s }));
    out.push(json(`key ${JSON.stringify(s)}`, { ...base(), [s]: 1 }));
    out.push(json(`scrapeOptions.includeTags ${JSON.stringify(s)}`, { ...base(), scrapeOptions: { includeTags: [s] }, includeTags: [s] }));
    if (size === 'full') {
      out.push(json(`urls item ${JSON.stringify(s)}`, { ...base(), urls: [TARGET, `${TARGET}${s}`] }));
      out.push(json(`webhook.metadata ${JSON.stringify(s)}`, { ...base(), webhook: { url: TARGET, metadata: { [s]: s } } }));
    }
  }

  // null objects and wrong types in every field.
  const wrong: unknown[] = size === 'full' ? [null, 0, -1, 1e308, true, 'x y', '', [], {}, [null], [{}], ['x'.repeat(10_000)], { a: null }] : [null, 7, [null], 'x y'];
  for (const f of fields) for (const v of wrong) out.push(json(`${f} = ${JSON.stringify(v).slice(0, 30)}`, { ...base(), [f]: v }));
  if (size === 'full') {
    for (const f of ['formats', 'actions', 'parsers', 'urls', 'includePaths', 'sources']) {
      out.push(json(`${f} of many`, { ...base(), [f]: Array.from({ length: 100_000 }, () => 'x') }));
    }
    out.push(raw('many values', `{"url":"${TARGET}","pad":[${Array(4_000_000).fill('0').join(',')}]}`));
    out.push(json('many keys', { ...base(), pad: Object.fromEntries(Array.from({ length: 199_000 }, (_, i) => [`k${i}`, i])) }));
    out.push(json('scrapeOptions nulls', { ...base(), scrapeOptions: Object.fromEntries(FIELDS.map((f) => [f, null])) }));
    out.push(json('jsonOptions null', { ...base(), formats: ['json'], jsonOptions: null }));
  }

  // Bodies that are not JSON objects, and non-JSON content types.
  out.push(raw('null body', 'null'), raw('array body', '[]'), raw('string body', '"x"'), raw('number body', '1'), raw('broken JSON', '{"url":'));
  out.push(raw('text/plain', 'url=x', 'text/plain'), raw('form', `url=${encodeURIComponent(TARGET)}`, 'application/x-www-form-urlencoded'));
  if (size === 'full') {
    out.push(raw('empty body', ''), raw('true body', 'true'), raw('no type', '{}', ''));
    out.push(raw('multipart', '--x\r\nContent-Disposition: form-data; name="url"\r\n\r\nx\r\n--x--\r\n', 'multipart/form-data; boundary=x'));
  }

  // Chunked bodies over the limit (and one under it).
  const over = maxBodyBytes * 2;
  out.push({ name: 'chunked over the limit', body: `{"url":"${TARGET}","pad":"`, contentType: 'application/json', chunkedBytes: over });
  if (size === 'full') {
    out.push({ name: 'chunked far over the limit', body: `{"url":"${TARGET}","pad":"`, contentType: 'application/json', chunkedBytes: maxBodyBytes * 3 });
    out.push({ name: 'chunked under the limit', body: `{"url":"${TARGET}","pad":"`, contentType: 'application/json', chunkedBytes: Math.floor(maxBodyBytes / 2) });
  }
  return out;
}

/** The route path with `:params` filled in (a well-formed id that matches nothing). */
export function concretePath(path: string): string {
  return path.replace(/:[A-Za-z]+/g, '01900000-0000-7000-8000-000000000001');
}

/**
 * POSTs `bytes` bytes of JSON (`head`, then padding, then `"}`) with Transfer-Encoding: chunked and no
 * Content-Length over a raw socket.
 * @returns the response status, 0 if the server closed the connection without answering
 */
export function postChunked(base: string, path: string, bytes: number, head = `{"url":"${DEFAULT_TARGET}","pad":"`): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let response = '';
    const status = () => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
    socket.on('data', (d) => {
      response += d.toString('latin1');
      if (status()) {
        resolve(status());
        socket.destroy();
      }
    });
    socket.on('error', () => resolve(status()));
    socket.on('close', () => resolve(status()));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = 'x'.repeat(64 * 1024);
    const send = (s: string) => socket.write(`${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`);
    send(head);
    for (let sent = head.length; sent < bytes; sent += chunk.length) send(chunk);
    send('"}');
    socket.write('0\r\n\r\n');
  });
}

/**
 * Sends one case to `base + path`.
 * @returns the response status (0: no answer), the time it took (ms), the error code of a 5xx
 */
export async function sendCase(base: string, path: string, c: FuzzCase, timeoutMs = 60_000): Promise<{ status: number; ms: number; code?: string }> {
  const started = performance.now();
  let status = 0;
  let code: string | undefined;
  if (c.chunkedBytes !== undefined) {
    status = await postChunked(base, path, c.chunkedBytes, c.body);
  } else {
    try {
      const res = await fetch(base + path, {
        method: 'POST',
        headers: c.contentType ? { 'content-type': c.contentType } : {},
        body: c.contentType ? c.body : new TextEncoder().encode(c.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      status = res.status;
      if (status >= 500) {
        try {
          code = JSON.parse(text).code;
        } catch {}
      }
    } catch {
      status = 0;
    }
  }
  return { status, ms: performance.now() - started, code };
}
