/**
 * The pdf parser on real PDFs from Debian packages: debian-reference-en (DocBook/dblatex, tables,
 * running headers) and texlive-fonts-recommended-doc (LaTeX/dvips). Tests skip when a package is
 * missing; CI installs them (.ci/run).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import pdf from '../../parsers/pdf.ts';
import { closePdfPool } from '../../parsers/pdf/pool.ts';
import type { ParsedDocument } from '../../core/plugin.ts';
import { DEBIAN_REFERENCE, PXFONTS_DOC, checkBlocks, hasDebianReference, hasPxfontsDoc, pdfPages, pluginContext } from './helpers.ts';

/** Limit for tests that start workers and parse whole files on a slow machine, ms. */
const SLOW = 30_000;

afterAll(() => closePdfPool());

async function parse(bytes: Uint8Array, options: Record<string, unknown> = {}): Promise<ParsedDocument> {
  return pdf.parse({ bytes, contentType: 'application/pdf', url: 'file:///doc.pdf' }, { type: 'pdf', mode: 'fast', ...options }, pluginContext());
}

describe.skipIf(!hasDebianReference)('debian-reference (debian-reference-en)', () => {
  // Physical pages 131-135: end of chapter 5 and the start of chapter 6 (tables, lists, tips).
  let doc: ParsedDocument;
  const markdown = () => doc.markdown!;

  test('parses the pages with page markers, pages and blocks', async () => {
    const bytes = await pdfPages(DEBIAN_REFERENCE, [131, 132, 133, 134, 135]);
    doc = await parse(bytes, { pageMarkers: true, pages: true, blocks: true });
    expect(doc.billablePages).toBe(5);
    expect(doc.metadata.numPages).toBe(5);
    expect(doc.pages!.map((p) => p.pageNumber)).toEqual([1, 2, 3, 4, 5]);
  }, SLOW);

  test('headings come from font size, in rank order', () => {
    const level = (text: string) => new RegExp(`^(#+) ${text.replace(/[.()]/g, '\\$&')}$`, 'm').exec(markdown())?.[1]!.length;
    expect(level('Network applications')).toBe(1);
    expect(level('6.1 Web browsers')).toBeGreaterThan(1);
    expect(level('6.1.1 Spoofing the User-Agent string')).toBe(level('6.1 Web browsers')! + 1);
    expect(level('6.2 The mail system')).toBe(level('6.1 Web browsers'));
  });

  test('tables keep rows, columns and wrapped cells', () => {
    const md = markdown();
    expect(md).toContain('| package | popcon | size | type | description of web browser |\n| --- | --- | --- | --- | --- |');
    expect(md).toContain('| chromium | V:37, I:118 | 212471 | X | Chromium, (open-source browser from Google) |');
    // A description wrapped over two lines, set around the row's baseline.
    expect(md).toContain('| firefox | V:9, I:14 | 223589 | , , | Firefox, (open-source browser from Mozilla, only available in Debian Unstable) |');
    // A package name so long that the other cells moved to the next line.
    expect(md).toContain('| epiphany-browser | V:3, I:19 | 2232 | , , | GNOME, HIG compliant, Epiphany |');
    expect(md).toContain('| shorewall6-lite | V:0, I:0 | 71 | Shoreline Firewall, netfilter configuration file generator (IPv6, light version) |');
    expect(md).toContain('\n\nTable 6.1: List of web browsers\n\n');
  });

  test('running headers and page numbers are dropped, text stays', () => {
    const md = markdown();
    expect(md).not.toContain('Debian Reference');
    expect(md).not.toMatch(/\b10[3-7] \/ 233\b/);
    expect(md).toContain('After establishing network connectivity (see Chapter 5), you can run various network applications.');
  });

  test('lists, run-in labels and page markers', () => {
    const md = markdown();
    expect(md).toContain('\n- MSS = MTU - 40 for IPv4\n- MSS = MTU - 60 for IPv6\n');
    expect(md).toContain('**Tip**\n\nFor modern Debian specific guide');
    const markers = [...md.matchAll(/\n\n---\n\n<!-- Page (\d+) -->\n\n/g)].map((m) => Number(m[1]));
    expect(markers).toEqual([2, 3, 4, 5]);
    expect(md.startsWith('\n')).toBe(false);
    expect(md).not.toContain('<!-- Page 1 -->');
    // Page markdown is the document markdown between markers.
    expect(md.split(/\n\n---\n\n<!-- Page \d+ -->\n\n/)).toEqual(doc.pages!.map((p) => p.markdown));
  });

  test('blocks follow the spec field list and point into the markdown', () => {
    expect(checkBlocks(doc.blocks, markdown())).toEqual([]);
    const pages = doc.blocks as { pageNumber: number; width: number | null; items: { type: string; content: string; markdownSpan: unknown }[] }[];
    expect(pages.map((p) => p.pageNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(pages.every((p) => p.width === null)).toBe(true); // embedded text: never rendered
    const items = pages.flatMap((p) => p.items);
    const table = items.find((i) => i.type === 'table' && i.content.includes('chromium'));
    expect(table?.markdownSpan).not.toBeNull();
    expect(items.filter((i) => i.type === 'page_header').every((i) => i.content === 'Debian Reference' && i.markdownSpan === null)).toBe(true);
    expect(items.some((i) => i.type === 'page_number' && i.content === '105 / 233')).toBe(true);
    expect(items.some((i) => i.type === 'caption' && i.content === 'Table 6.1: List of web browsers')).toBe(true);
  });

  test('metadata, maxPages and billing on the whole manual', async () => {
    const full = await parse(await Bun.file(DEBIAN_REFERENCE).bytes(), { maxPages: 3 });
    expect(full.metadata).toMatchObject({ title: 'Debian Reference', author: 'Osamu Aoki', numPages: 3, totalPages: 261 });
    expect(full.billablePages).toBe(3);
    expect(full.markdown).toContain('# Debian Reference');
  }, SLOW);

  test('a table of contents becomes nested entries without dot leaders', async () => {
    const toc = await parse(await pdfPages(DEBIAN_REFERENCE, [5]));
    expect(toc.markdown).toContain('\n- 1.1 Console basics 1\n  - 1.1.1 The shell prompt 1\n  - 1.1.2 The shell prompt under GUI 2\n');
    expect(toc.markdown).not.toContain('. . . .');
  }, SLOW);
});

describe.skipIf(!hasPxfontsDoc)('pxfonts manual (texlive-fonts-recommended-doc)', () => {
  test('numbered lists, code blocks and sections', async () => {
    const doc = await parse(await pdfPages(PXFONTS_DOC, [2, 3]));
    const md = doc.markdown!;
    expect(md.startsWith('# 1 Introduction\n\nThe PX fonts consist of\n\n1. ')).toBe(true);
    expect(md).toContain('\n1. virtual text roman fonts using Adobe Palatino (or URWPalladioL) with some modified and additional text symbols in the OT1, T1, and TS1 encoding\n2. virtual text sans serif');
    expect(md).toContain('```\n\\localtexmf\\fonts\\afm\\pxr\\\n\\localtexmf\\fonts\\tfm\\pxr\\\n');
    expect(md).toContain('```\n. . .\n% Configuration of postscript type 1 fonts:\np psfonts.map\np +pxr2.map\n. . .\n```');
    expect(md).toContain('\n\n# 4 A Problem: DVIPS Partial Font Downloading\n\n');
  }, SLOW);
});
