/**
 * PDFs reached by URL through POST /v2/scrape (issue 5 scope 1; interface.md `parsers`): found by
 * content type, after a redirect, and by magic bytes when the server says octet-stream or even
 * text/html; the parser options (mode, pages, pageMarkers, blocks, maxPages), `metadata.numPages`,
 * 1 credit per page (charged, not only reported), and `parsers: []` returning the file base64 at
 * 1 credit. A real PDF from Debian (`debian-reference-en`) when installed, else PDFs made with mupdf.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { DEBIAN_REFERENCE, checkBlocks, hasDebianReference, pdfPages } from '../parsers/helpers.ts';
import { samplePdf } from './helpers.ts';

let site: FixtureSite;
let trawl: TestTrawl;
const sample = samplePdf(4, 'Tide report');
/** Pages 1-6 of the Debian Reference (title pages, table of contents, chapter 1). */
let debian: Uint8Array | undefined;

const pdfHeaders = (type: string) => ({ 'content-type': type });

beforeAll(async () => {
  if (hasDebianReference) debian = await pdfPages(DEBIAN_REFERENCE, [1, 2, 3, 4, 5, 6]);
  site = serveFixtures({
    '/files/report.pdf': { body: sample, headers: pdfHeaders('application/pdf') },
    '/latest': () => new Response(null, { status: 302, headers: { location: '/files/report.pdf' } }),
    '/download': { body: sample, headers: pdfHeaders('application/octet-stream') },
    '/page.html': { body: sample, headers: pdfHeaders('text/html; charset=utf-8') },
    '/debian.pdf': () => new Response((debian ?? new Uint8Array()) as BodyInit, { headers: pdfHeaders('application/pdf') }),
  });
  trawl = await startTrawl();
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 60_000);

const auth = () => ({ authorization: `Bearer ${trawl.adminKey}` });

async function scrape(body: Record<string, unknown>) {
  // maxAge 0: every call fetches and parses again (no cached copy answers)
  const r = await trawl.post('/v2/scrape', { maxAge: 0, ...body }, auth());
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return r.body.data;
}

async function balance(): Promise<number> {
  return (await trawl.get('/v2/team/credit-usage', auth())).body.data.remainingCredits;
}

describe('PDF detection', () => {
  const cases: [string, string, string][] = [
    ['by content type', '/files/report.pdf', 'application/pdf'],
    ['after a redirect', '/latest', 'application/pdf'],
    ['by magic bytes under application/octet-stream, no extension', '/download', 'application/octet-stream'],
    ['by magic bytes under text/html', '/page.html', 'text/html; charset=utf-8'],
  ];
  for (const [name, path, type] of cases) {
    test(name, async () => {
      const doc = await scrape({ url: site.url(path) });
      expect(doc.markdown.startsWith('# Chapter 1\n\n')).toBe(true);
      expect(doc.markdown).toContain('Page 4 line 12:');
      expect(doc.metadata).toMatchObject({ title: 'Tide report', numPages: 4, creditsUsed: 4, statusCode: 200, contentType: type, sourceURL: site.url(path) });
      expect(doc.metadata.url).toBe(site.url(path === '/latest' ? '/files/report.pdf' : path));
    });
  }
});

describe('parser options', () => {
  test('pages, pageMarkers and blocks', async () => {
    const doc = await scrape({ url: site.url('/files/report.pdf'), parsers: [{ type: 'pdf', mode: 'fast', pages: true, pageMarkers: true, blocks: true }] });
    expect(doc.pages.map((p: { pageNumber: number }) => p.pageNumber)).toEqual([1, 2, 3, 4]);
    expect(doc.pages[3].markdown.startsWith('# Chapter 4')).toBe(true);
    expect(doc.markdown.match(/<!-- Page \d -->/g)).toEqual(['<!-- Page 2 -->', '<!-- Page 3 -->', '<!-- Page 4 -->']);
    expect(checkBlocks(doc.blocks, doc.markdown)).toEqual([]);
    expect(doc.blocks.map((b: { pageNumber: number; status: string }) => `${b.pageNumber}:${b.status}`)).toEqual(['1:ok', '2:ok', '3:ok', '4:ok']);
  });

  test('pageMarkdown is an alias of pages; the bare string "pdf" works', async () => {
    const alias = await scrape({ url: site.url('/files/report.pdf'), parsers: [{ type: 'pdf', pageMarkdown: true }] });
    expect(alias.pages).toHaveLength(4);
    const bare = await scrape({ url: site.url('/files/report.pdf'), parsers: ['pdf'] });
    expect(bare.metadata.numPages).toBe(4);
    expect(bare.pages).toBeUndefined();
  });

  test('maxPages: fewer pages parsed, fewer credits charged', async () => {
    const before = await balance();
    const doc = await scrape({ url: site.url('/files/report.pdf'), parsers: [{ type: 'pdf', maxPages: 2 }] });
    expect(doc.metadata).toMatchObject({ numPages: 2, totalPages: 4, creditsUsed: 2 });
    expect(doc.markdown).toContain('Page 2 line 12:');
    expect(doc.markdown).not.toContain('Page 3 line 1:');
    expect(await balance()).toBe(before - 2);
  });

  test('parsers: [] returns the PDF base64-encoded for 1 credit', async () => {
    const before = await balance();
    const doc = await scrape({ url: site.url('/download'), parsers: [], formats: ['markdown', 'rawHtml'] });
    expect(Buffer.from(doc.markdown, 'base64').equals(Buffer.from(sample))).toBe(true);
    expect(doc.rawHtml).toBe(doc.markdown);
    expect(doc.metadata.creditsUsed).toBe(1);
    expect(doc.metadata.numPages).toBeUndefined();
    expect(await balance()).toBe(before - 1);
  });

  test('formats without a text field: the base64 comes as rawBase64', async () => {
    const doc = await scrape({ url: site.url('/files/report.pdf'), parsers: [], formats: ['links'] });
    expect(doc.links).toEqual([]);
    expect(Buffer.from(doc.rawBase64, 'base64').equals(Buffer.from(sample))).toBe(true);
  });
});

describe.skipIf(!hasDebianReference)('a real PDF: the Debian Reference (pages 1-6)', () => {
  test('text, headings, page markers and 1 credit per page', async () => {
    const before = await balance();
    const doc = await scrape({ url: site.url('/debian.pdf'), parsers: [{ type: 'pdf', mode: 'fast', pageMarkers: true, blocks: true }] });
    expect(doc.metadata.numPages).toBe(6);
    expect(doc.metadata.creditsUsed).toBe(6);
    expect(doc.markdown.startsWith('# Debian Reference\n\n')).toBe(true);
    expect(doc.markdown).toContain('\n\n# Contents\n\n');
    expect(doc.markdown).toContain('\n- 1.1 Console basics 1\n  - 1.1.1 The shell prompt 1\n');
    expect(doc.markdown).toContain('covers many aspects of system administration through shell-command examples');
    // markers only between pages, numbered by physical page (the blank page 2 is skipped)
    expect(doc.markdown.match(/<!-- Page \d+ -->/g)).toEqual(['<!-- Page 3 -->', '<!-- Page 4 -->', '<!-- Page 5 -->', '<!-- Page 6 -->']);
    expect(checkBlocks(doc.blocks, doc.markdown)).toEqual([]);
    expect(await balance()).toBe(before - 6);
  }, 60_000);
});
