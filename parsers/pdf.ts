/**
 * The `pdf` parser (interface.md, Scrape options `parsers`): PDF to markdown with mupdf, embedded
 * text first and OCR where it is missing (`mode` fast | auto | ocr), headings, lists, tables, reading
 * order across columns, page furniture dropped; `maxPages`, `pages`, `pageMarkers` and `blocks`.
 * PDFs are recognized by magic bytes too, since servers often send `application/octet-stream`.
 * Billing: 1 credit per parsed page (`billablePages`). Work runs in a worker pool (pdf/pool.ts).
 */
import { defineParser } from '../core/plugin.ts';
import { isPdf } from './pdf/magic.ts';

export default defineParser({
  name: 'pdf',
  async close() {
    const { closePdfPool } = await import('./pdf/pool.ts');
    const { closeOcrPool } = await import('./ocr/pool.ts');
    await Promise.all([closePdfPool(), closeOcrPool()]);
  },
  accepts: { mime: ['application/pdf', 'application/x-pdf', 'application/acrobat'], ext: ['.pdf'], magic: isPdf },
  optIn: true,
  async parse(input, options, ctx) {
    const { runDocument } = await import('./pdf/pool.ts');
    return runDocument(
      {
        kind: 'pdf',
        bytes: input.bytes,
        mime: 'application/pdf',
        mode: options.mode ?? 'auto',
        maxPages: options.maxPages,
        pages: options.pages ?? false,
        pageMarkers: options.pageMarkers ?? false,
        blocks: options.blocks ?? false,
        deadline: ctx.deadline,
      },
      ctx,
    );
  },
});
