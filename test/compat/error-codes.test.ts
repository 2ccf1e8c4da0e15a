/**
 * The error-code table cannot drift (modelled on Fastify's test/internals/errors.test.js; issue 25
 * item 6): every code of `CODE_TABLE` is thrown (or recorded as a crawl page error) somewhere in the
 * source and documented in docs/errors.md with its status, and the docs list no other code. A body
 * over `TRAWL_MAX_FETCH_BYTES` is one error, 413 `SCRAPE_CONTENT_TOO_LARGE`, in both engines.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Glob } from 'bun';
import { join } from 'node:path';
import { CODE_TABLE, type ErrorCode } from '../../core/errors.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startOn, type TestTrawl } from '../scrape-options/helpers.ts';

setDefaultTimeout(60_000);

const ROOT = join(import.meta.dir, '../..');
const codes = Object.keys(CODE_TABLE) as ErrorCode[];

async function sources(): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const dir of ['core', 'parsers', 'plugins', 'formats', 'bin']) {
    for await (const file of new Glob(`${dir}/**/*.ts`).scan(ROOT)) {
      if (file !== 'core/errors.ts') out.push({ file, text: await Bun.file(join(ROOT, file)).text() });
    }
  }
  return out;
}

describe('the code table', () => {
  test('every code is thrown or recorded somewhere', async () => {
    const files = await sources();
    const unused = codes.filter((code) => {
      // new TrawlError('X' ...), TrawlError.wrap(e, 'X'), or a crawl page error record (code: 'X', error_code = 'X').
      const used = new RegExp(`(new TrawlError\\(\\s*|\\.wrap\\([^;]*?,\\s*|\\bcode: |error_code = )'${code}'`);
      return !files.some((f) => used.test(f.text));
    });
    expect(unused).toEqual([]);
  });

  test('every code is documented in docs/errors.md with its status, and nothing else is', async () => {
    const doc = await Bun.file(join(ROOT, 'docs/errors.md')).text();
    const rows = new Map([...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    expect([...rows.keys()].sort()).toEqual([...codes].sort());
    for (const code of codes) expect([code, rows.get(code)]).toEqual([code, CODE_TABLE[code].status]);
    expect(await Bun.file(join(ROOT, 'README.md')).text()).toContain('docs/errors.md');
  });
});

describe('a body over the fetch cap', () => {
  let site: FixtureSite;
  let trawl: TestTrawl;
  beforeAll(async () => {
    const big = 'Tide tables for every harbour on the coast. '.repeat(4000); // ~176 KB
    site = serveFixtures({
      '/big.txt': { body: big, headers: { 'content-type': 'text/plain; charset=utf-8' } },
      '/big.html': `<html><body><p>${big}</p></body></html>`,
    });
    trawl = await startOn({ TRAWL_MAX_FETCH_BYTES: String(64 * 1024) });
  });
  afterAll(async () => {
    await trawl?.stop();
    site?.stop();
  });

  test('fetch engine: 413 SCRAPE_CONTENT_TOO_LARGE', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/big.html'), maxAge: 0 });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('SCRAPE_CONTENT_TOO_LARGE');
    expect(res.body.error).toContain(String(64 * 1024));
  });

  test('browser engine: the same 413 SCRAPE_CONTENT_TOO_LARGE', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/big.txt'), maxAge: 0, actions: [{ type: 'wait', milliseconds: 10 }] });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('SCRAPE_CONTENT_TOO_LARGE');
    expect(res.body.error).toContain('[browser]');
  });
});
