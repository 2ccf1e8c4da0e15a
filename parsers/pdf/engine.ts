/**
 * One document job inside the PDF worker: open the file with mupdf, read each page (embedded text,
 * or OCR through the pool in the main thread), lay the pages out and build the parsed document.
 * Limits: `maxPages`, the job deadline (pages not reached are left out with a warning) and the WASM
 * heap size. Bad files become TrawlErrors with a message saying what is wrong.
 */
import type * as Mupdf from 'mupdf';
import { TrawlError } from '../../core/errors.ts';
import type { ParsedDocument } from '../../core/plugin.ts';
import type { Box, PageText } from './layout/types.ts';
import { spansToPieces } from './layout/pieces.ts';
import { layoutDocument, renderMarkdown } from './layout/document.ts';
import { blocksOutput } from './output.ts';
import { needsOcr, ocrScale, readPage, renderForOcr } from './extract.ts';
import { imageJob } from './image-pages.ts';
import { ocrPage, type EngineCtx as Ctx, type EngineJob, type OcrFn, type PageSlot } from './job.ts';
import { pdfMetadata } from './metadata.ts';
import { isPdf } from './magic.ts';

/** Pages a document may have processed at most (interface.md `maxPages` upper bound). */
export const MAX_PAGES = 10_000;
/** Unreadable pages in a row after which the rest of the document is given up. */
const MAX_FAILURES_IN_A_ROW = 20;
/** Time kept back from the deadline for layout and the reply, ms. */
const RESERVE_MS = 1500;

function open(mupdf: typeof Mupdf, job: EngineJob): Mupdf.Document {
  if (job.kind === 'pdf' && !isPdf(job.bytes)) {
    throw new TrawlError('PARSE_FAILED', '[pdf] the file is not a PDF (no %PDF- header in its first 1024 bytes)');
  }
  let doc: Mupdf.Document;
  try {
    doc = mupdf.Document.openDocument(job.bytes, job.mime);
  } catch (e) {
    const what = job.kind === 'pdf' ? 'PDF' : 'image';
    throw new TrawlError('PARSE_FAILED', `[${job.kind}] the file is not a readable ${what}: ${(e as Error).message}`, { cause: e });
  }
  if (doc.needsPassword()) {
    throw new TrawlError('SCRAPE_UNSUPPORTED_FILE_ERROR', '[pdf] the PDF is encrypted with a password; it cannot be read without it');
  }
  return doc;
}

/** Reads one PDF page (synchronously; OCR'd pages come back as a promise). */
function readOne(ctx: Ctx, doc: Mupdf.Document, index: number): PageSlot {
  const { mupdf, job } = ctx;
  const pageNumber = index + 1;
  const page = doc.loadPage(index);
  try {
    const bounds = page.getBounds() as Box;
    const width = bounds[2] - bounds[0];
    const height = bounds[3] - bounds[1];
    const native = readPage(page, bounds);
    const nativeText = (): PageText => ({
      pageNumber, width, height, pieces: spansToPieces(native.spans), figures: native.figures,
      source: 'native_text', rendered: null, status: 'ok',
    });
    if (job.mode === 'fast' || (job.mode === 'auto' && !needsOcr(native))) return nativeText();
    const scale = ocrScale(bounds);
    const shot = renderForOcr(mupdf, page, scale);
    const rendered = { width: shot.width, height: shot.height };
    if (shot.blank) return { ...nativeText(), rendered };
    return ocrPage(ctx, shot.png, scale, { pageNumber, width, height, figures: native.figures, rendered }, () => ({
      ...nativeText(),
      rendered,
      status: native.chars > 0 ? 'partial' : 'failed',
    }));
  } finally {
    page.destroy();
  }
}

function failedPage(pageNumber: number): PageText {
  return { pageNumber, width: 0, height: 0, pieces: [], figures: [], source: 'native_text', rendered: null, status: 'failed' };
}

async function readPdf(ctx: Ctx, doc: Mupdf.Document): Promise<{ pages: PageText[]; total: number }> {
  const { job } = ctx;
  let total: number;
  try {
    total = doc.countPages();
  } catch (e) {
    throw new TrawlError('PARSE_FAILED', `[pdf] the page tree is broken: ${(e as Error).message}`, { cause: e });
  }
  if (total <= 0) throw new TrawlError('PARSE_FAILED', '[pdf] the PDF has no pages');
  const limit = Math.min(total, job.maxPages ?? MAX_PAGES, MAX_PAGES);
  if (limit < total && job.maxPages === undefined) ctx.warnings.push(`[pdf] only the first ${MAX_PAGES} of ${total} pages were parsed`);
  const slots: PageSlot[] = [];
  const inflight = new Set<Promise<PageText>>();
  let failures = 0;
  for (let i = 0; i < limit; i++) {
    if (failures >= MAX_FAILURES_IN_A_ROW) {
      ctx.warnings.push(`[pdf] stopped after page ${i}: ${failures} pages in a row could not be read`);
      break;
    }
    if (Date.now() > job.deadline - RESERVE_MS) {
      ctx.warnings.push(`[pdf] stopped after page ${i} of ${limit}: time limit reached (raise \`timeout\` for the rest)`);
      break;
    }
    if (ctx.heap() > job.memoryLimit) {
      ctx.warnings.push(`[pdf] stopped after page ${i} of ${limit}: memory limit reached`);
      break;
    }
    let slot: PageSlot;
    try {
      slot = readOne(ctx, doc, i);
    } catch (e) {
      if (failures++ < 3) ctx.warnings.push(`[pdf] page ${i + 1} could not be read: ${(e as Error).message}`);
      slot = failedPage(i + 1);
    }
    if (!(slot instanceof Promise) && slot.status !== 'failed') failures = 0;
    slots.push(slot);
    if (slot instanceof Promise) {
      inflight.add(slot);
      void slot.finally(() => inflight.delete(slot as Promise<PageText>));
      if (inflight.size >= job.ocrParallel) await Promise.race(inflight);
    }
  }
  return { pages: await Promise.all(slots), total };
}

/**
 * Runs a job to a parsed document.
 * @throws TrawlError PARSE_FAILED (unreadable, no pages), SCRAPE_UNSUPPORTED_FILE_ERROR (password),
 *   SCRAPE_PDF_INSUFFICIENT_TIME_ERROR (not one page before the deadline)
 */
export async function runJob(mupdf: typeof Mupdf, job: EngineJob, ocr: OcrFn, heap: () => number): Promise<ParsedDocument> {
  const ctx: Ctx = { mupdf, job, ocr, warnings: [], heap };
  const doc = job.kind === 'image' && job.mime === 'image/webp' ? undefined : open(mupdf, job);
  try {
    const { pages, total } = job.kind === 'pdf' ? await readPdf(ctx, doc!) : await imageJob(ctx, doc);
    if (pages.length === 0) {
      throw new TrawlError('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', `[${job.kind}] not enough time to parse any of the ${total} pages; raise \`timeout\``);
    }
    const layouts = layoutDocument(pages);
    const rendered = renderMarkdown(layouts, job.pageMarkers);
    const failed = pages.filter((p) => p.status === 'failed').length;
    if (failed === pages.length) throw new TrawlError('PARSE_FAILED', `[${job.kind}] no page could be read: ${ctx.warnings.join('; ')}`);
    const metadata: Record<string, unknown> = { ...(doc && job.kind === 'pdf' ? pdfMetadata(doc) : {}), numPages: pages.length, totalPages: total };
    const out: ParsedDocument = { markdown: rendered.markdown, metadata, billablePages: job.kind === 'pdf' ? pages.length : undefined };
    if (job.pages) out.pages = rendered.pages;
    if (job.blocks) out.blocks = blocksOutput(layouts, rendered);
    if (ctx.warnings.length) out.warning = ctx.warnings.join(' ');
    return out;
  } finally {
    doc?.destroy();
  }
}

