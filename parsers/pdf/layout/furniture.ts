/**
 * Page furniture: running headers, footers and page numbers. A piece in the top or bottom margin band
 * is furniture when it looks like a page number, when its text (digits ignored) repeats at the same
 * height on many pages, or when it shares its row with a page number. Furniture is kept out of the
 * markdown but reported in `blocks` as page_header / page_footer / page_number.
 */
import type { BlockType, PageText, Piece } from './types.ts';

/** Share of the page height treated as the top and bottom margin bands. */
const BAND = 0.1;

const PAGE_NUMBER = [
  /^(page|p\.|pg\.?|seite|página|pagina|strona)?\s*\d{1,5}(\s*(\/|of|von|de|sur|из)\s*\d{1,5})?$/i,
  /^[-–—]\s*\d{1,5}\s*[-–—]$/,
  /^[ivxlcdm]{1,7}$/i,
];

/** Whether a text is a page number ("12", "xiv", "Page 3 of 9", "105 / 233", "- 4 -"). */
export function isPageNumber(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && PAGE_NUMBER.some((re) => re.test(t));
}

function key(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

function band(piece: Piece, page: PageText): 'top' | 'bottom' | undefined {
  const mid = (piece.box[1] + piece.box[3]) / 2;
  if (mid < page.height * BAND) return 'top';
  if (mid > page.height * (1 - BAND)) return 'bottom';
  return undefined;
}

/**
 * Finds the furniture of a document.
 * @param pages every page of the document (repetition is counted across them)
 * @returns for each page (same order), a map from furniture piece to its block type
 */
export function findFurniture(pages: PageText[]): Map<Piece, BlockType>[] {
  const result = pages.map(() => new Map<Piece, BlockType>());
  const groups = new Map<string, { page: number; piece: Piece; y: number }[]>();
  const withText = pages.filter((p) => p.pieces.length > 0).length;

  pages.forEach((page, i) => {
    for (const piece of page.pieces) {
      const where = band(piece, page);
      if (!where) continue;
      if (isPageNumber(piece.text)) {
        result[i]!.set(piece, 'page_number');
        continue;
      }
      const k = `${where}|${key(piece.text)}`;
      const list = groups.get(k) ?? [];
      list.push({ page: i, piece, y: piece.box[1] / page.height });
      groups.set(k, list);
    }
  });

  for (const [k, list] of groups) {
    const ys = list.map((e) => e.y).sort((a, b) => a - b);
    const mid = ys[Math.floor(ys.length / 2)]!;
    const aligned = list.filter((e) => Math.abs(e.y - mid) < 0.02);
    const distinctPages = new Set(aligned.map((e) => e.page)).size;
    if (distinctPages >= 2 && distinctPages >= 0.4 * withText) {
      const type: BlockType = k.startsWith('top|') ? 'page_header' : 'page_footer';
      for (const e of aligned) result[e.page]!.set(e.piece, type);
    }
  }

  // A running title sharing its row with a page number is furniture too, even when it changes per section.
  pages.forEach((page, i) => {
    const marks = result[i]!;
    const numbers = [...marks].filter(([, t]) => t === 'page_number').map(([p]) => p);
    for (const piece of page.pieces) {
      if (marks.has(piece)) continue;
      const where = band(piece, page);
      if (!where) continue;
      if (numbers.some((n) => Math.abs(n.base - piece.base) < Math.max(n.size, piece.size) * 0.5)) {
        marks.set(piece, where === 'top' ? 'page_header' : 'page_footer');
      }
    }
  });
  return result;
}
