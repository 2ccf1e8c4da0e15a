/**
 * Builds small PDFs for tests with mupdf: pages of positioned text in the standard 14 fonts, and
 * pages that are only an image (for OCR). Nothing is committed; every test makes what it needs.
 */
import * as mupdf from 'mupdf';

export type Font = 'Helvetica' | 'Helvetica-Bold' | 'Times-Roman' | 'Times-Bold' | 'Courier';

/** Text at (x, y): y is the baseline measured from the top of the page, in points. */
export interface TextItem {
  x: number;
  y: number;
  size: number;
  font?: Font;
  text: string;
}

export type PageSpec = { items: TextItem[]; width?: number; height?: number } | { image: Uint8Array; width?: number; height?: number };

const FONTS: Font[] = ['Helvetica', 'Helvetica-Bold', 'Times-Roman', 'Times-Bold', 'Courier'];

function escape(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/**
 * Makes a PDF.
 * @param options.save mupdf save options, e.g. `encrypt=aes-256,user-password=x`
 */
export function makePdf(pages: PageSpec[], options: { save?: string; title?: string } = {}): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const fontRefs = Object.fromEntries(FONTS.map((f, i) => [`F${i}`, doc.addSimpleFont(new mupdf.Font(f))]));
  for (const page of pages) {
    const width = page.width ?? 612;
    const height = page.height ?? 792;
    if ('image' in page) {
      const img = doc.addImage(new mupdf.Image(page.image));
      const res = doc.addObject({ XObject: { I0: img } });
      doc.insertPage(-1, doc.addPage([0, 0, width, height], 0, res, `q ${width} 0 0 ${height} 0 0 cm /I0 Do Q`));
      continue;
    }
    const ops = page.items.map((t) => {
      const f = `F${FONTS.indexOf(t.font ?? 'Times-Roman')}`;
      return `BT /${f} ${t.size} Tf ${t.x} ${height - t.y} Td (${escape(t.text)}) Tj ET`;
    });
    const res = doc.addObject({ Font: fontRefs });
    doc.insertPage(-1, doc.addPage([0, 0, width, height], 0, res, ops.join('\n')));
  }
  if (options.title) doc.setMetaData('info:Title', options.title);
  return doc.saveToBuffer(options.save ?? 'compress').asUint8Array().slice();
}

/** Renders page `index` of a PDF to PNG at `dpi`. */
export function renderPng(pdf: Uint8Array, index: number, dpi: number): Uint8Array {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const pix = doc.loadPage(index).toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
  return pix.asPNG().slice();
}

/** Lines of running text, `perLine` words each, for filler paragraphs. */
export function words(n: number, seed = 1): string[] {
  const vocab = ['data', 'model', 'system', 'network', 'value', 'result', 'method', 'process', 'report', 'table', 'figure', 'section', 'analysis', 'layer', 'signal', 'sample', 'energy', 'market', 'policy', 'design'];
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return vocab[s % vocab.length]!;
  });
}
