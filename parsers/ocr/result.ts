/**
 * OCR results as plain data: tesseract.js's block tree flattened to words with their box, baseline,
 * row height and confidence (what the layout engine needs), and the conversion of those words into
 * layout spans in page units. Plain data because results cross from the OCR pool to the PDF worker.
 */
import type { Box, Span } from '../pdf/layout/types.ts';

export interface OcrWord {
  text: string;
  /** [x0, y0, x1, y1] in image pixels. */
  box: Box;
  /** Baseline y of the word's line, pixels. */
  base: number;
  /** Row height of the word's line, pixels (close to the font size). */
  size: number;
  /** 0..1. */
  conf: number;
}

export interface OcrResult {
  words: OcrWord[];
  /** Mean confidence 0..1, null when nothing was read. */
  confidence: number | null;
}

interface TBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TWord {
  text: string;
  confidence: number;
  bbox: TBox;
}
interface TLine {
  bbox: TBox;
  baseline: TBox;
  rowAttributes?: { rowHeight: number; ascenders: number; descenders: number };
  words: TWord[];
}
interface TData {
  confidence?: number;
  blocks?: { paragraphs: { lines: TLine[] }[] }[] | null;
}

/**
 * Marks without a letter or digit that tesseract is unsure of are noise (specks, picture edges).
 * Words with letters stay even at low confidence: monospaced words often score under 20 and are right.
 */
function noise(w: TWord): boolean {
  return w.confidence < 50 && !/[\p{L}\p{N}]/u.test(w.text);
}

/** Font size over x-height for common text faces. */
const EM_PER_X_HEIGHT = 1.9;

/**
 * A line's font size, pixels. The row height mixes in ascenders and descenders that vary with the
 * letters present; the x-height (row height less both) follows the font size much more closely.
 */
function fontSize(line: TLine): number {
  const r = line.rowAttributes;
  const x = r ? r.rowHeight - r.ascenders - r.descenders : 0;
  return x > 2 ? x * EM_PER_X_HEIGHT : (r?.rowHeight ?? line.bbox.y1 - line.bbox.y0);
}

/** Flattens tesseract.js output (`blocks: true`) into words. */
export function toOcrResult(raw: unknown): OcrResult {
  const data = raw as TData;
  const words: OcrWord[] = [];
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        const height = fontSize(line);
        const { x0, y0, x1, y1 } = line.baseline;
        for (const w of line.words) {
          const text = w.text.trim();
          if (!text || noise(w)) continue;
          const mid = (w.bbox.x0 + w.bbox.x1) / 2;
          const base = x1 === x0 ? y0 : y0 + ((y1 - y0) * (mid - x0)) / (x1 - x0);
          words.push({ text, box: [w.bbox.x0, w.bbox.y0, w.bbox.x1, w.bbox.y1], base, size: height, conf: w.confidence / 100 });
        }
      }
    }
  }
  const confidence = words.length ? words.reduce((a, w) => a + w.conf, 0) / words.length : null;
  return { words, confidence };
}

/**
 * OCR words as layout spans.
 * @param scale render pixels per page unit (the OCR coordinates are divided by it)
 */
export function ocrSpans(result: OcrResult, scale: number): { spans: Span[]; confs: Map<Span, number> } {
  const confs = new Map<Span, number>();
  const spans = result.words.map((w) => {
    const span: Span = {
      text: w.text,
      box: [w.box[0] / scale, w.box[1] / scale, w.box[2] / scale, w.box[3] / scale],
      base: w.base / scale,
      size: w.size / scale,
      bold: false,
      italic: false,
      mono: false,
      math: false,
    };
    confs.set(span, w.conf);
    return span;
  });
  return { spans, confs };
}
