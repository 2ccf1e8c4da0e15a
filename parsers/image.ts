/**
 * The `image` parser (compat.md §1.2: parser "image" is accepted): OCR of PNG, JPEG, WebP, TIFF (every
 * page), BMP and GIF files with tesseract, then the same layout engine as PDFs (headings by size,
 * paragraphs, tables). Opt-in: without `image` in `parsers`, images are not OCR'd. `pages`,
 * `pageMarkers` and `blocks` work as for PDFs; credits stay 1 per file.
 */
import { defineParser } from '../core/plugin.ts';

const TYPES: [mime: string, test: (b: Uint8Array) => boolean][] = [
  ['image/png', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/webp', (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')],
  ['image/tiff', (b) => (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a)],
  ['image/gif', (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')],
  ['image/bmp', (b) => ascii(b, 0, 'BM') && b.length > 26],
];

function ascii(b: Uint8Array, at: number, s: string): boolean {
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** The image type of some bytes by their signature, or undefined. */
export function imageType(bytes: Uint8Array): string | undefined {
  return TYPES.find(([, test]) => test(bytes))?.[0];
}

export default defineParser({
  name: 'image',
  async close() {
    const { closeOcrPool } = await import('./ocr/pool.ts');
    await closeOcrPool();
  },
  accepts: {
    mime: ['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/webp', 'image/tiff', 'image/gif', 'image/bmp', 'image/x-ms-bmp'],
    ext: ['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff', '.gif', '.bmp'],
    magic: (bytes) => imageType(bytes) !== undefined,
  },
  optIn: true,
  async parse(input, options, ctx) {
    const { TrawlError } = await import('../core/errors.ts');
    const mime = imageType(input.bytes);
    if (!mime) throw new TrawlError('PARSE_FAILED', '[image] the file is not a PNG, JPEG, WebP, TIFF, GIF or BMP image');
    const { runDocument } = await import('./pdf/pool.ts');
    const doc = await runDocument(
      {
        kind: 'image',
        bytes: input.bytes,
        mime,
        mode: 'ocr',
        maxPages: options.maxPages,
        pages: options.pages ?? false,
        pageMarkers: options.pageMarkers ?? false,
        blocks: options.blocks ?? false,
        deadline: ctx.deadline,
      },
      ctx,
    );
    return { ...doc, metadata: { ...doc.metadata, ...(input.filename ? { title: input.filename } : {}) } };
  },
});
