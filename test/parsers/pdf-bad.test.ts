/**
 * Bad PDFs get a clear TrawlError or partial pages, never a crash: password-protected, truncated,
 * no pages, a broken page tree claiming 100 million pages, garbage after a PDF header, HTML sent as
 * a PDF; and the limits: the deadline (partial result or a clear error) and the abort signal. The
 * pool keeps working afterwards.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import pdf from '../../parsers/pdf.ts';
import { closePdfPool } from '../../parsers/pdf/pool.ts';
import { TrawlError } from '../../core/errors.ts';
import type { ParsedDocument } from '../../core/plugin.ts';
import { makePdf, words } from './make-pdf.ts';
import { DEBIAN_REFERENCE, hasDebianReference, pluginContext } from './helpers.ts';

/** Limit for tests that start workers and parse whole files on a slow machine, ms. */
const SLOW = 30_000;

afterAll(() => closePdfPool());

const enc = (s: string) => new TextEncoder().encode(s);

function doc(pages = 3): Uint8Array {
  return makePdf(
    Array.from({ length: pages }, (_, p) => ({
      items: Array.from({ length: 30 }, (_, i) => ({ x: 72, y: 80 + i * 20, size: 11, text: `Page ${p + 1} line ${i + 1}: ${words(8, p * 100 + i).join(' ')}` })),
    })),
  );
}

async function parse(bytes: Uint8Array, ms = 30_000, signal?: AbortSignal): Promise<ParsedDocument> {
  return pdf.parse({ bytes, contentType: 'application/pdf', url: 'file:///bad.pdf' }, { type: 'pdf', mode: 'fast' }, pluginContext(ms, signal));
}

async function failure(p: Promise<unknown>): Promise<TrawlError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    return e as TrawlError;
  }
  throw new Error('expected a TrawlError');
}

describe('bad PDFs', () => {
  test('password-protected', async () => {
    const e = await failure(parse(makePdf([{ items: [{ x: 72, y: 72, size: 12, text: 'secret text' }] }], { save: 'encrypt=aes-256,user-password=hunter2' })));
    expect(e.code).toBe('SCRAPE_UNSUPPORTED_FILE_ERROR');
    expect(e.message).toContain('password');
  }, SLOW);

  test('encrypted with an owner password only is readable', async () => {
    const out = await parse(makePdf([{ items: [{ x: 72, y: 72, size: 12, text: 'open text' }] }], { save: 'encrypt=aes-128,owner-password=boss' }));
    expect(out.markdown).toBe('open text');
  });

  test('truncated: what is left is read', async () => {
    const full = doc(3);
    const out = await parse(full.slice(0, Math.floor(full.length * 0.6)));
    expect(out.markdown).toContain('Page 1 line 1:');
    expect(out.metadata.totalPages).toBeGreaterThanOrEqual(1);
  });

  test('no pages', async () => {
    const e = await failure(parse(enc('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF')));
    expect(e.code).toBe('PARSE_FAILED');
    expect(e.message).toContain('no pages');
  });

  test('a page tree claiming 100 million pages', async () => {
    const bytes = enc(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 100000000>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF',
    );
    const e = await failure(parse(bytes));
    expect(e.code).toBe('PARSE_FAILED');
    expect(e.message).toContain('page tree');
  });

  test('garbage after a PDF header', async () => {
    const e = await failure(parse(enc(`%PDF-1.7\n${'x'.repeat(5000)}`)));
    expect(e.code).toBe('PARSE_FAILED');
    expect(e.message).toContain('not a readable PDF');
  });

  test('HTML served as a PDF', async () => {
    const e = await failure(parse(enc('<html><body>Not found</body></html>')));
    expect(e.code).toBe('PARSE_FAILED');
    expect(e.message).toContain('%PDF-');
  });

  test('an aborted job stops with SCRAPE_TIMEOUT and the pool goes on', async () => {
    const ac = new AbortController();
    const pending = parse(doc(40), 30_000, ac.signal);
    setTimeout(() => ac.abort(), 5);
    const e = await failure(pending);
    expect(e.code).toBe('SCRAPE_TIMEOUT');
    const out = await parse(doc(1));
    expect(out.markdown).toContain('Page 1 line 30:');
  }, SLOW);

  test.skipIf(!hasDebianReference)('the deadline gives a partial result or a clear error, in time', async () => {
    const started = Date.now();
    try {
      const out = await parse(await Bun.file(DEBIAN_REFERENCE).bytes(), 1800);
      expect(out.warning).toContain('time limit');
      expect(out.metadata.numPages as number).toBeLessThan(261);
      expect(out.billablePages).toBe(out.metadata.numPages as number);
    } catch (e) {
      expect((e as TrawlError).code).toBe('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR');
    }
    expect(Date.now() - started).toBeLessThan(1800 + 20_000); // catches a deadline that is ignored, not speed
  }, SLOW);
});
