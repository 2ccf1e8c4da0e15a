/**
 * Image files as pages for OCR (the `image` parser). mupdf opens PNG, JPEG, TIFF (every page), BMP
 * and GIF as documents and renders them, small images enlarged so letters are tall enough for
 * tesseract; WebP, which mupdf cannot read, goes to tesseract as it is. Page units are the image's
 * own pixels. Images above MAX_PIXELS are refused (decompression bombs).
 */
import type * as Mupdf from 'mupdf';
import { TrawlError } from '../../core/errors.ts';
import type { Box, PageText } from './layout/types.ts';
import { ocrPage, type EngineCtx, type PageSlot } from './job.ts';

/** Largest image accepted, pixels. */
export const MAX_PIXELS = 100_000_000;
/** Largest render sent to OCR, pixels. */
const MAX_RENDER = 16_000_000;
/** Pages of a multi-page image read at most. */
const MAX_IMAGE_PAGES = 100;

/** Width and height of a WebP file from its header, or undefined when it is not one. */
export function webpSize(b: Uint8Array): { width: number; height: number } | undefined {
  const tag = (o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);
  if (b.length < 30 || tag(0) !== 'RIFF' || tag(8) !== 'WEBP') return undefined;
  const chunk = tag(12);
  if (chunk === 'VP8 ') return { width: (b[26]! | (b[27]! << 8)) & 0x3fff, height: (b[28]! | (b[29]! << 8)) & 0x3fff };
  if (chunk === 'VP8L') {
    const v = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (v & 0x3fff) + 1, height: ((v >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)) };
  }
  return undefined;
}

function tooLarge(width: number, height: number): TrawlError {
  return new TrawlError('PARSE_FAILED', `[image] the image is too large (${width}×${height} pixels; the limit is ${MAX_PIXELS / 1e6} megapixels)`);
}

/** Enlargement for OCR: small images get bigger (up to 2.5×), large ones stay within MAX_RENDER. */
function upscale(width: number, height: number): number {
  const long = Math.max(width, height);
  let f = long < 2000 ? Math.min(2.5, 2000 / long) : 1;
  if (width * height * f * f > MAX_RENDER) f = Math.sqrt(MAX_RENDER / (width * height));
  return f;
}

/** Reads the pages of an image job (every page is OCR'd). */
export async function imageJob(ctx: EngineCtx, doc: Mupdf.Document | undefined): Promise<{ pages: PageText[]; total: number }> {
  const { mupdf, job } = ctx;
  const failed = (pageNumber: number, width: number, height: number): PageText => ({
    pageNumber, width, height, pieces: [], figures: [], source: 'layout_ocr', rendered: null, status: 'failed',
  });
  if (!doc) {
    const size = webpSize(job.bytes);
    if (!size || size.width === 0 || size.height === 0) throw new TrawlError('PARSE_FAILED', '[image] the file is not a readable WebP image');
    if (size.width * size.height > MAX_PIXELS) throw tooLarge(size.width, size.height);
    const page = await ocrPage(ctx, job.bytes, 1, { pageNumber: 1, ...size, figures: [], rendered: size }, () => failed(1, size.width, size.height));
    return { pages: [page], total: 1 };
  }
  let image: Mupdf.Image;
  try {
    image = new mupdf.Image(job.bytes);
  } catch (e) {
    throw new TrawlError('PARSE_FAILED', `[image] the file is not a readable image: ${(e as Error).message}`, { cause: e });
  }
  const pxWidth = image.getWidth();
  const pxHeight = image.getHeight();
  image.destroy();
  if (pxWidth * pxHeight > MAX_PIXELS) throw tooLarge(pxWidth, pxHeight);
  const total = doc.countPages();
  const slots: PageSlot[] = [];
  for (let i = 0; i < Math.min(total, job.maxPages ?? MAX_IMAGE_PAGES, MAX_IMAGE_PAGES); i++) {
    if (Date.now() > job.deadline) break;
    const page = doc.loadPage(i);
    try {
      const bounds = page.getBounds() as Box;
      const native = pxWidth / Math.max(1, bounds[2] - bounds[0]);
      const width = (bounds[2] - bounds[0]) * native;
      const height = (bounds[3] - bounds[1]) * native;
      if (width * height > MAX_PIXELS) throw tooLarge(Math.round(width), Math.round(height));
      const f = upscale(width, height);
      const pix = page.toPixmap(mupdf.Matrix.scale(native * f, native * f), mupdf.ColorSpace.DeviceGray, false, true);
      const png = pix.asPNG();
      const rendered = { width: pix.getWidth(), height: pix.getHeight() };
      pix.destroy();
      slots.push(ocrPage(ctx, png, f, { pageNumber: i + 1, width, height, figures: [], rendered }, () => failed(i + 1, width, height)));
    } finally {
      page.destroy();
    }
  }
  return { pages: await Promise.all(slots), total };
}
