/**
 * Shapes of a document job shared by the engine (PDF pages) and image-pages.ts (image files): the job
 * as the pool sends it, the context of a running job, and OCR of one rendered page into layout input.
 */
import type * as Mupdf from 'mupdf';
import type { PageText } from './layout/types.ts';
import { spansToPieces } from './layout/pieces.ts';
import { ocrSpans, type OcrResult } from '../ocr/result.ts';

export interface EngineJob {
  kind: 'pdf' | 'image';
  bytes: Uint8Array;
  mime: string;
  mode: 'fast' | 'auto' | 'ocr';
  maxPages?: number;
  pages: boolean;
  pageMarkers: boolean;
  blocks: boolean;
  /** Epoch ms. */
  deadline: number;
  /** Largest mupdf heap before the job stops reading pages, bytes. */
  memoryLimit: number;
  /** OCR requests kept in flight at once. */
  ocrParallel: number;
}

/** Asks the main thread's OCR pool to read a PNG. */
export type OcrFn = (png: Uint8Array) => Promise<OcrResult>;

/** What the steps of one job share. */
export interface EngineCtx {
  mupdf: typeof Mupdf;
  job: EngineJob;
  ocr: OcrFn;
  warnings: string[];
  heap: () => number;
}

/** A page read now, or a page waiting for OCR. */
export type PageSlot = PageText | Promise<PageText>;

/**
 * OCRs a rendered page.
 * @param scale render pixels per page unit
 * @param fallback the page to use when OCR fails (a warning names the page)
 */
export function ocrPage(
  ctx: EngineCtx,
  png: Uint8Array,
  scale: number,
  page: Pick<PageText, 'pageNumber' | 'width' | 'height' | 'figures' | 'rendered'>,
  fallback: () => PageText,
): Promise<PageText> {
  return ctx.ocr(png).then(
    (result): PageText => {
      const { spans, confs } = ocrSpans(result, scale);
      return { ...page, pieces: spansToPieces(spans, confs), source: 'layout_ocr', status: 'ok' };
    },
    (e): PageText => {
      ctx.warnings.push(`[${ctx.job.kind}] page ${page.pageNumber}: OCR failed (${(e as Error).message})`);
      return fallback();
    },
  );
}

