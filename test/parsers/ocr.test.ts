/**
 * OCR: pages of a real born-digital PDF (debian-reference) rendered with pdftoppm (poppler-utils)
 * and read by the image parser, and the same pages in the pdf parser's `ocr` mode, must match the
 * PDF's own text (fast mode) with a character error rate of at most 2%. `auto` mode OCRs only the
 * page without text of a PDF built here. Bad images fail clearly.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pdf from '../../parsers/pdf.ts';
import image from '../../parsers/image.ts';
import { closePdfPool } from '../../parsers/pdf/pool.ts';
import { OcrPool, closeOcrPool } from '../../parsers/ocr/pool.ts';
import { TrawlError } from '../../core/errors.ts';
import type { ParsedDocument } from '../../core/plugin.ts';
import { makePdf, renderPng } from './make-pdf.ts';
import { DEBIAN_REFERENCE, cer, checkBlocks, hasDebianReference, hasPdftoppm, pdfPages, pluginContext } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'trawl-ocr-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closePdfPool();
  await closeOcrPool();
});

/** Per-test limit: OCR takes seconds per page on a small machine, ms. */
const OCR_MS = 120_000;
/** Prose pages of the manual (physical numbers). */
const PAGES = [34, 71];

function parsePdf(bytes: Uint8Array, options: Record<string, unknown>): Promise<ParsedDocument> {
  return pdf.parse({ bytes, contentType: 'application/pdf', url: 'file:///d.pdf' }, { type: 'pdf', ...options }, pluginContext(120_000));
}

function parseImage(bytes: Uint8Array, contentType: string, options: Record<string, unknown> = {}): Promise<ParsedDocument> {
  return image.parse({ bytes, contentType, url: 'file:///i' }, { type: 'image', ...options }, pluginContext(120_000));
}

describe.skipIf(!hasDebianReference || !hasPdftoppm)('OCR accuracy on debian-reference pages (pdftoppm)', () => {
  /** The PDF's own text of a page: its embedded text through the same layout (fast mode). */
  async function ownText(page: number): Promise<string> {
    const native = await parsePdf(await pdfPages(DEBIAN_REFERENCE, [page]), { mode: 'fast' });
    expect(native.markdown!.length).toBeGreaterThan(1500);
    return native.markdown!;
  }

  test('a page rendered by pdftoppm and read by the image parser: CER <= 2%', async () => {
    const page = PAGES[0]!;
    const proc = Bun.spawnSync(['pdftoppm', '-r', '300', '-gray', '-png', '-f', String(page), '-l', String(page), DEBIAN_REFERENCE, join(dir, 'p')]);
    expect(proc.exitCode).toBe(0);
    const doc = await parseImage(await Bun.file(join(dir, `p-${String(page).padStart(3, '0')}.png`)).bytes(), 'image/png');
    expect(cer(doc.markdown!, await ownText(page))).toBeLessThanOrEqual(0.02);
    expect(doc.billablePages).toBeUndefined();
  }, OCR_MS);

  test('ocr mode on a PDF page: CER <= 2%, blocks carry render size and confidence', async () => {
    const page = PAGES[1]!;
    const doc = await parsePdf(await pdfPages(DEBIAN_REFERENCE, [page]), { mode: 'ocr', blocks: true });
    expect(checkBlocks(doc.blocks, doc.markdown!)).toEqual([]);
    expect(cer(doc.markdown!, await ownText(page))).toBeLessThanOrEqual(0.02);
    const [entry] = doc.blocks as { width: number; height: number; items: { source: string; confidence: { ocr: number | null } }[] }[];
    expect(entry!.width).toBeGreaterThan(2000);
    expect(entry!.height).toBeGreaterThan(3000);
    expect(entry!.items.every((i) => i.source === 'layout_ocr')).toBe(true);
    expect(entry!.items.filter((i) => i.confidence.ocr !== null).length).toBeGreaterThan(5);
  }, OCR_MS);
});

describe('auto mode and the image parser', () => {
  const scanned = makePdf([{ items: [
    { x: 72, y: 120, size: 20, font: 'Helvetica-Bold', text: 'Scanned Delivery Note' },
    { x: 72, y: 170, size: 14, text: 'Twelve crates of apples arrived on Monday morning.' },
    { x: 72, y: 195, size: 14, text: 'The driver signed the receipt at the loading dock.' },
  ] }]);
  const png = renderPng(scanned, 0, 200);

  test('auto mode OCRs only the page that has no text', async () => {
    const bytes = makePdf([
      { items: [{ x: 72, y: 100, size: 12, text: 'First page with embedded text about oranges.' }] },
      { image: png },
      { items: [{ x: 72, y: 100, size: 12, text: 'Third page with embedded text about pears.' }] },
    ]);
    const doc = await parsePdf(bytes, { mode: 'auto', blocks: true });
    const pages = doc.blocks as { width: number | null; items: { source: string }[] }[];
    expect(pages.map((p) => p.width === null)).toEqual([true, false, true]);
    expect(pages.map((p) => p.items[0]?.source)).toEqual(['native_text', 'layout_ocr', 'native_text']);
    expect(doc.markdown).toContain('First page with embedded text about oranges.');
    expect(doc.markdown).toContain('Twelve crates of apples arrived on Monday morning.');
    expect(doc.markdown).toContain('Third page with embedded text about pears.');
    expect(doc.markdown).toMatch(/^#+ Scanned Delivery Note$/m);
    // fast mode never OCRs: the scanned page is empty.
    const fast = await parsePdf(bytes, { mode: 'fast' });
    expect(fast.markdown).not.toContain('apples');
  }, OCR_MS);

  test('PNG, JPEG and TIFF images are read', async () => {
    const png = renderPng(scanned, 0, 150);
    const doc = await parseImage(png, 'image/png', { blocks: true });
    expect(doc.markdown).toContain('The driver signed the receipt at the loading dock.');
    expect(checkBlocks(doc.blocks, doc.markdown!)).toEqual([]);
    if (hasPdftoppm) {
      const pdfFile = join(dir, 'note.pdf');
      await Bun.write(pdfFile, scanned);
      for (const [flag, ext, mime] of [['-jpeg', 'jpg', 'image/jpeg'], ['-tiff', 'tif', 'image/tiff']] as const) {
        expect(Bun.spawnSync(['pdftoppm', '-r', '150', flag, '-singlefile', pdfFile, join(dir, 'note')]).exitCode).toBe(0);
        const out = await parseImage(await Bun.file(join(dir, `note.${ext}`)).bytes(), mime);
        expect(out.markdown).toContain('Twelve crates of apples arrived on Monday morning.');
      }
    }
  }, OCR_MS);

  test('a configured language without data fails clearly, without a download', async () => {
    const pool = new OcrPool(['xyz'], join(dir, 'tessdata'), 1);
    try {
      await pool.recognize(renderPng(scanned, 0, 50));
      throw new Error('expected a failure');
    } catch (e) {
      expect((e as TrawlError).code).toBe('PARSE_FAILED');
      expect((e as TrawlError).message).toContain('no language data for "xyz"');
    } finally {
      await pool.close();
    }
  }, OCR_MS);

  test('bad images fail clearly', async () => {
    // A PNG header claiming 12000 x 12000 pixels (a decompression bomb).
    const bomb = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0x2e, 0xe0, 0, 0, 0x2e, 0xe0, 8, 2, 0, 0, 0, 0, 0, 0, 0]);
    for (const [bytes, text] of [[bomb, 'too large'], [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'not a readable image'], [new TextEncoder().encode('hello'), 'not a PNG']] as const) {
      try {
        await parseImage(bytes, 'image/png');
        throw new Error('expected a failure');
      } catch (e) {
        expect(e).toBeInstanceOf(TrawlError);
        expect((e as TrawlError).code).toBe('PARSE_FAILED');
        expect((e as TrawlError).message).toContain(text);
      }
    }
  }, OCR_MS);
});
