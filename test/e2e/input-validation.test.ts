/**
 * Request input limits of issue 15 through the HTTP API: `headers` shape and limits on every route
 * that takes them (item 1), nesting depth and validation errors that never echo the body (item 2),
 * bodies without Content-Length stopped at the byte limit (item 10), NUL and unpaired surrogates
 * refused with the field path, and null objects (item 12).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { createTestDatabaseConfig } from '../helpers/db.ts';
import { postChunked } from './fuzz-cases.ts';
import { upload } from '../parse/helpers.ts';

const MAX_BODY = 1024 * 1024;
let site: FixtureSite;
let trawl: TestTrawl;
let seen: Record<string, string | null>[] = [];
let echoUrl: string;
let stopEcho = () => {};

beforeAll(async () => {
  site = serveFixtures({ '/page': '<html><body><p>hello headers</p></body></html>' });
  const echo = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      seen.push({ token: req.headers.get('x-token') });
      return new Response('<html><body><p>echo</p></body></html>', { headers: { 'content-type': 'text/html' } });
    },
  });
  stopEcho = () => echo.stop(true);
  echoUrl = `http://127.0.0.1:${echo.port}/`;
  trawl = await startTrawl({ TRAWL_AUTH: 'off', TRAWL_MAX_BODY_BYTES: String(MAX_BODY) });
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
  stopEcho();
}, 120_000);

/** Bodies that put `headers` where each route takes it. */
function headerBodies(headers: unknown): [string, unknown][] {
  const url = 'http://127.0.0.1:9/';
  return [
    ['/v2/scrape', { url, headers }],
    ['/v1/scrape', { url, headers }],
    ['/v2/crawl', { url, scrapeOptions: { headers } }],
    ['/v2/crawl', { url, webhook: { url, headers } }],
    ['/v2/batch/scrape', { urls: [url], headers }],
    ['/v2/search', { query: 'x', scrapeOptions: { headers } }],
    ['/v1/crawl', { url, scrapeOptions: { headers } }],
  ];
}

describe('headers (item 1)', () => {
  const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x-h${i}`, 'v']));
  const cases: [string, unknown, string][] = [
    ['a string', 'x'.repeat(100_000), 'not a string'],
    ['a number', 5, 'not a number'],
    ['an array', ['a: b'], 'not an array'],
    ['101 entries', many, 'at most 100'],
    ['over 16 KB', { 'x-big': 'v'.repeat(17_000) }, '16384 bytes'],
    ['a bad name', { 'bad name': 'v' }, 'RFC 7230'],
    ['CR LF in a value', { 'x-a': 'v\r\nx-injected: 1' }, 'CR, LF or NUL'],
    ['a number value', { 'x-a': 1 }, 'must be a string'],
  ];
  for (const [name, headers, says] of cases) {
    test(`${name} is refused with 400 naming the limit on every route`, async () => {
      for (const [path, body] of headerBodies(headers)) {
        const res = await trawl.post(path, body);
        expect({ path, status: res.status }).toEqual({ path, status: 400 });
        expect(res.body.error).toContain('headers');
        expect(res.body.error).toContain(says);
      }
    });
  }

  test('valid headers still reach the target', async () => {
    seen = [];
    const res = await trawl.post('/v2/scrape', { url: echoUrl, headers: { 'X-Token': 'abc' }, formats: ['markdown'] });
    expect(res.status).toBe(200);
    expect(seen.some((s) => s.token === 'abc')).toBe(true);
  });
});

describe('nesting and validation errors (item 2)', () => {
  test('a body nested deeper than 64 levels is a 400, shallow enough ones are validated as usual', async () => {
    for (const depth of [65, 20_000]) {
      const res = await trawl.post('/v2/scrape', '['.repeat(depth) + ']'.repeat(depth));
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('64');
    }
    const ok = await trawl.post('/v2/scrape', { url: 'http://127.0.0.1:9/', nested: JSON.parse('['.repeat(60) + ']'.repeat(60)) });
    expect(ok.body?.error ?? '').not.toContain('deeper');
  });

  test('a body of more than 200,000 values is a 400 before it is parsed', async () => {
    const res = await trawl.post('/v2/batch/scrape', `{"urls":[${Array(200_001).fill('0').join(',')}]}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('200000 values');
    const ok = await trawl.post('/v2/scrape', `{"url":"http://127.0.0.1:9/","pad":[${Array(1000).fill('0').join(',')}]}`);
    expect(ok.body?.error ?? '').not.toContain('values');
  });

  test('a validation error does not echo the value', async () => {
    const marker = 'MARKER-'.repeat(1000);
    const bodies = [
      { url: 'http://127.0.0.1:9/', timeout: marker },
      { url: 'http://127.0.0.1:9/', origin: [marker] },
      { url: [marker] },
      { url: 'http://127.0.0.1:9/', actions: [{ type: 'wait', milliseconds: marker }] },
    ];
    for (const body of bodies) {
      const res = await trawl.post('/v2/scrape', body);
      expect(res.status).toBe(400);
      expect(res.text).not.toContain('MARKER');
      expect(res.text.length).toBeLessThan(5_000);
    }
  });

  test('the executable runs Elysia in production mode unless NODE_ENV says otherwise', async () => {
    // Both processes at once (each start is mostly one core's work).
    await Promise.all(([[{}, true], [{ NODE_ENV: 'development' }, false]] as const).map(async ([env, production]) => {
      const db = await createTestDatabaseConfig('postgres', { migrated: true });
      const proc = Bun.spawn(['bun', 'bin/trawl.ts', 'serve'], {
        cwd: `${import.meta.dir}/../..`,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', PORT: '0', HOST: '127.0.0.1', TRAWL_AUTH: 'off', TRAWL_DATA_DIR: db.config.dataDir, DATABASE_URL: db.config.databaseUrl!, ...env },
        stdout: 'pipe',
        stderr: 'pipe',
      });
      try {
        const line = await firstLine(proc.stdout, 'trawl listening', 90_000);
        expect(JSON.parse(line).production).toBe(production);
      } finally {
        proc.kill();
        await proc.exited;
        await db.cleanup();
      }
    }));
  }, 200_000);
});

/** Reads `stream` until a line containing `needle`. */
async function firstLine(stream: ReadableStream<Uint8Array>, needle: string, timeoutMs: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const line = text.split('\n').find((l) => l.includes(needle));
    if (line) return line;
  }
  throw new Error(`no "${needle}" line in: ${text.slice(0, 2000)}`);
}

describe('bodies without Content-Length (item 10)', () => {
  test('a chunked body over the limit is refused with 413 on JSON routes', async () => {
    for (const path of ['/v2/scrape', '/v2/crawl', '/v2/map', '/v1/scrape']) {
      expect({ path, status: await postChunked(trawl.base, path, 2 * MAX_BODY) }).toEqual({ path, status: 413 });
    }
  });

  test('a chunked body under the limit is read as usual', async () => {
    expect(await postChunked(trawl.base, '/v2/scrape', MAX_BODY / 4)).not.toBe(413);
  });

  test('/v2/parse keeps its own, larger limit', async () => {
    const form = new FormData();
    form.set('file', new File([`<html><body><p>${'word '.repeat(MAX_BODY / 4)}</p></body></html>`], 'big.html', { type: 'text/html' }));
    const res = await fetch(`${trawl.base}/v2/parse`, { method: 'POST', body: form });
    expect(res.status).not.toBe(413);
  });
});

describe('NUL, surrogates and null objects (item 12)', () => {
  const url = 'http://127.0.0.1:9/';
  const cases: [string, unknown, string][] = [
    ['/v2/scrape', { url: `${url}a\u0000b` }, '/url'],
    ['/v2/scrape', { url, headers: { 'x-a': 'v\ud800' } }, '/headers/x-a'],
    ['/v2/scrape', { url, parsers: ['pdf\u0000'] }, '/parsers/0'],
    ['/v2/search', { query: 'a\u0000b' }, '/query'],
    ['/v2/crawl', { url, scrapeOptions: { includeTags: ['\udc00p'] } }, '/scrapeOptions/includeTags/0'],
    ['/v2/crawl', { url, robotsUserAgent: 'bot\u0000' }, '/robotsUserAgent'],
    ['/v2/batch/scrape', { urls: [url], appendToId: '\u0000' }, '/appendToId'],
    ['/v2/feedback', { endpoint: 'scrape', jobId: '0190a0a0-0000-7000-8000-000000000000', note: 'n\u0000' }, '/note'],
    ['/v2/map', { url, search: 'x', ['k\u0000']: 1 }, 'key'],
  ];
  for (const [path, body, named] of cases) {
    test(`${path} ${named}: 400 naming the field`, async () => {
      const res = await trawl.post(path, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(named);
    });
  }

  test('the options part of an upload is held to the same rules', async () => {
    const file = { filename: 'a.html', contentType: 'text/html', body: '<html><body><p>x</p></body></html>' };
    for (const [options, says] of [
      [{ formats: ['markdown'], note: 'a\u0000' }, '/note'],
      [{ headers: 'x'.repeat(1000) }, 'not a string'],
      [JSON.parse('{"a":' + '['.repeat(70) + ']'.repeat(70) + '}'), '64'],
    ] as const) {
      const res = await upload(trawl, file, options);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(says);
    }
  });

  test('POST /v1/search with scrapeOptions null is treated as absent (as in v2), not a 500', async () => {
    const res = await trawl.post('/v1/search', { query: 'x', scrapeOptions: null });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });
});
