/**
 * A real site: Debian's postgresql-doc-15 HTML manual served on 127.0.0.1, scraped through the HTTP
 * API and through the official SDK `firecrawl@4.42.0` (unchanged, pointed at Trawl with `apiUrl`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Firecrawl from 'firecrawl';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';

const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const installed = existsSync(join(DOCS, 'index.html'));

let trawl: TestTrawl;
let server: ReturnType<typeof Bun.serve> | undefined;
let origin = '';

beforeAll(async () => {
  if (!installed) return;
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname.replace(/^\/+/, '') || 'index.html';
      if (path.includes('..')) return new Response('bad', { status: 400 });
      const file = Bun.file(join(DOCS, path));
      return (await file.exists()) ? new Response(file) : new Response('<h1>Not found</h1>', { status: 404, headers: { 'content-type': 'text/html' } });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
  trawl = await startTrawl({ TRAWL_AUTH: 'keys' });
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  server?.stop(true);
}, 120_000);

const scrape = async (page: string, extra: Record<string, unknown> = {}) => {
  const res = await trawl.post('/v2/scrape', { url: `${origin}/${page}`, ...extra }, { authorization: `Bearer ${trawl.adminKey}` });
  expect(res.status).toBe(200);
  return res.body.data as { markdown: string; links?: string[]; metadata: Record<string, any> };
};

describe.skipIf(!installed)('postgresql-doc-15 through the API', () => {
  test('a reference page keeps headings, paragraphs, code and drops navigation', async () => {
    const d = await scrape('sql-select.html');
    expect(d.metadata.title).toContain('SELECT');
    expect(d.markdown).toMatch(/^#{1,2} SELECT/m);
    expect(d.markdown).toMatch(/^#{2,3} Synopsis/m);
    expect(d.markdown).toMatch(/^#{2,3} Description/m);
    expect(d.markdown).toContain('```');
    expect(d.markdown).toMatch(/SELECT \[ ALL \| DISTINCT/);
    // Navigation chrome of the manual (header/footer nav tables) is gone.
    expect(d.markdown).not.toMatch(/\bPrev\b.*\bNext\b/);
    expect(d.markdown).not.toMatch(/^\s*\|?\s*\[?Home\]?/m);
    // Links are absolute.
    const links = [...d.markdown.matchAll(/\]\(([^)\s]+)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(5);
    for (const l of links) expect(l).toMatch(/^https?:\/\//);
  });

  test('tables become GFM tables', async () => {
    const d = await scrape('datatype-numeric.html');
    expect(d.markdown).toMatch(/^\| Name \| Storage Size \| Description \| Range \|$/m);
    expect(d.markdown).toMatch(/^\| ?-{3,}/m);
    expect(d.markdown).toMatch(/\| `?smallint`? \| 2 bytes \|/);
  });

  test('lists survive', async () => {
    const d = await scrape('tutorial-arch.html');
    expect(d.markdown).toMatch(/^\s*[-*] /m);
    expect(d.markdown).toContain('client');
  });

  test('onlyMainContent false keeps the navigation', async () => {
    const main = await scrape('sql-select.html');
    const full = await scrape('sql-select.html', { onlyMainContent: false });
    expect(full.markdown.length).toBeGreaterThan(main.markdown.length);
    expect(full.markdown).toMatch(/Prev|Next|Up|Home/);
  });

  test('the official SDK scrapes a page unchanged', async () => {
    const app = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
    const doc = await app.scrape(`${origin}/tutorial-select.html`, { formats: ['markdown', 'links', 'html'] });
    expect(doc.markdown).toContain('SELECT');
    expect(doc.links?.length).toBeGreaterThan(3);
    expect(doc.html).toContain('<');
    expect(doc.metadata?.statusCode).toBe(200);
    expect(doc.metadata?.sourceURL).toBe(`${origin}/tutorial-select.html`);
    // A 404 page is a successful scrape for the SDK too.
    const missing = await app.scrape(`${origin}/no-such-page.html`);
    expect(missing.metadata?.statusCode).toBe(404);
  });

  test('the SDK surfaces Trawl errors with their message', async () => {
    const app = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
    await expect(app.scrape('ftp://127.0.0.1/file')).rejects.toThrow(/scheme/);
  });
});
