/**
 * What mupdf gives for one page: its spans (from structured text with `preserve-spans`), image areas,
 * a judgement of whether the embedded text is usable (auto mode OCRs pages without it), and page
 * renders for OCR. Runs inside the PDF worker (worker.ts), where mupdf is loaded.
 */
import type * as Mupdf from 'mupdf';
import type { Box, Span } from './layout/types.ts';

/** OCR render resolution, dots per inch, and the largest render, in pixels. */
export const OCR_DPI = 300;
const MAX_RENDER_PIXELS = 16_000_000;

const JSON_SCALE = 10;
const MONO = /mono|courier|txtt|txbtt|pcrr|consol|menlo|typewriter|cmtt|lmtt|sfmono|inconsolata|lucidaconsole|andale|\btt\d|code/i;
const MATH = /^(cmmi|cmsy|cmex|cmbsy|cmmib|msam|msbm|eufm|rsfs|stmary|wasy|txsy|pxsy|txmi|pxmi|txex|pxex|mathematica|cambria ?math|stix.?math|xits.?math|latinmodern-?math|lmmath|symbol)/i;

interface JsonLine {
  bbox: { x: number; y: number; w: number; h: number };
  font: { name: string; family: string; weight: string; style: string; size: number };
  x: number;
  y: number;
  text: string;
}
interface JsonBlock {
  type: string;
  bbox: { x: number; y: number; w: number; h: number };
  lines?: JsonLine[];
}

export interface NativePage {
  spans: Span[];
  figures: Box[];
  /** Non-space characters, and those that are not real text (U+FFFD, private use, controls). */
  chars: number;
  badChars: number;
  /** Share of the page area covered by images, 0..1. */
  imageCover: number;
}

function fontName(raw: string): string {
  return raw.replace(/^[A-Z]{6}\+/, '');
}

/**
 * Reads the embedded text of a page.
 * @param bounds the page bounds [x0, y0, x1, y1] in points
 */
export function readPage(page: Mupdf.Page, bounds: Box): NativePage {
  const st = page.toStructuredText('preserve-spans,preserve-images');
  let json: { blocks: JsonBlock[] };
  try {
    // Coordinates come rounded to integers: ask for tenths of a point (scale 10) and scale back.
    json = JSON.parse(st.asJSON(JSON_SCALE)) as { blocks: JsonBlock[] };
  } finally {
    st.destroy();
  }
  const [px, py] = bounds;
  const area = Math.max(1, (bounds[2] - bounds[0]) * (bounds[3] - bounds[1]));
  const spans: Span[] = [];
  const figures: Box[] = [];
  let chars = 0;
  let badChars = 0;
  let imageArea = 0;
  const k = 1 / JSON_SCALE;
  for (const b of json.blocks) {
    const box: Box = [b.bbox.x * k - px, b.bbox.y * k - py, (b.bbox.x + b.bbox.w) * k - px, (b.bbox.y + b.bbox.h) * k - py];
    if (b.type === 'image') {
      const a = Math.max(0, box[2] - box[0]) * Math.max(0, box[3] - box[1]);
      imageArea += a;
      if (a > 0.02 * area) figures.push(box);
      continue;
    }
    for (const l of b.lines ?? []) {
      const text = l.text;
      const visible = text.replace(/\s/g, '');
      if (!visible) continue;
      chars += visible.length;
      badChars += (visible.match(/[\uFFFD\uE000-\uF8FF\u0000-\u001F]/g) ?? []).length;
      const size = (l.font.size || l.bbox.h) * k;
      const w = l.bbox.w * k;
      const h = l.bbox.h * k;
      // Rotated text (margin stamps, rotated table headers) is left out of the flow.
      if (visible.length >= 2 && h > 2 * size && w < 1.5 * size) continue;
      const name = fontName(l.font.name);
      let box: Box = [l.bbox.x * k - px, l.bbox.y * k - py, l.bbox.x * k + w - px, l.bbox.y * k + h - py];
      let base = l.y * k - py;
      // mupdf joins text that touches a line's end into that line through a synthetic space, keeping
      // the line's origin: a span that starts with a space and is too tall sits on a lower baseline.
      if (/^\s/.test(text) && h > 1.35 * size) {
        base = box[3] - 0.22 * size;
        box = [box[0] + 0.3 * size, box[3] - size, box[2], box[3]];
      }
      spans.push({
        text: text.replace(/[\u0000-\u001F]/g, ''),
        box,
        base,
        size,
        bold: l.font.weight === 'bold' || /bold|black|heavy|semibold|demi|\bbx\b|cmbx/i.test(name),
        italic: l.font.style === 'italic' || /italic|oblique|cmti|cmsl/i.test(name),
        mono: l.font.family === 'monospace' || MONO.test(name),
        math: MATH.test(name),
      });
    }
  }
  return { spans, figures, chars, badChars, imageCover: Math.min(1, imageArea / area) };
}

/**
 * Whether auto mode should OCR a page: no text, mostly unmapped glyphs (U+FFFD, private use), or a
 * scan carrying a stamp of a few words ("Scanned by ...").
 */
export function needsOcr(p: NativePage): boolean {
  if (p.chars < 20) return true;
  if (p.badChars / p.chars >= 0.25) return true;
  return p.imageCover >= 0.5 && p.chars < 50;
}

/** The render scale for OCR: OCR_DPI, reduced for very large pages. */
export function ocrScale(bounds: Box): number {
  const w = bounds[2] - bounds[0];
  const h = bounds[3] - bounds[1];
  const scale = OCR_DPI / 72;
  const pixels = w * h * scale * scale;
  return pixels > MAX_RENDER_PIXELS ? Math.sqrt(MAX_RENDER_PIXELS / (w * h)) : scale;
}

/**
 * Renders a page in grey for OCR.
 * @returns PNG bytes, the render size in px and whether the page is blank (nothing to read)
 */
export function renderForOcr(mupdf: typeof Mupdf, page: Mupdf.Page, scale: number): { png: Uint8Array; width: number; height: number; blank: boolean } {
  const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true);
  try {
    const samples = pix.getPixels();
    let ink = 0;
    for (let i = 0; i < samples.length; i += 7) if (samples[i]! < 160) ink++;
    const blank = ink < (samples.length / 7) * 0.0005;
    return { png: blank ? new Uint8Array() : pix.asPNG(), width: pix.getWidth(), height: pix.getHeight(), blank };
  } finally {
    pix.destroy();
  }
}
