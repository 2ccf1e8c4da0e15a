/**
 * Spans to pieces: spans are grouped into visual rows by baseline (superscripts and footnote marks
 * join the row they sit in), then each row is cut wherever the horizontal gap is wider than a word
 * space could be. A piece is therefore a line of a text column or one cell of a table row. List
 * markers and section numbers set apart from their text are joined to it.
 */
import type { Box, Piece, Span } from './types.ts';
import { BULLET, ENUMERATOR, SECTION_NUMBER } from './patterns.ts';

/** Gap (in font sizes) above which two spans on one row are separate pieces. */
const PIECE_GAP_EM = 0.8;


export function union(a: Box, b: Box): Box {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

interface Row {
  base: number;
  size: number;
  top: number;
  bottom: number;
  spans: Span[];
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Groups spans into rows by baseline; small spans (super/subscripts) join the row they overlap. */
function rows(spans: Span[]): Row[] {
  const sorted = [...spans].sort((a, b) => a.base - b.base || a.box[0] - b.box[0]);
  const typical = median(spans.map((s) => s.size)) || 10;
  const out: Row[] = [];
  const small: Span[] = [];
  for (const s of sorted) {
    if (s.size < typical * 0.8 && s.text.trim().length <= 4) {
      small.push(s);
      continue;
    }
    // Spans come by baseline, so only the last rows can take this one.
    let row: Row | undefined;
    for (let k = out.length - 1; k >= 0 && out[k]!.base >= s.base - s.size; k--) {
      if (Math.abs(out[k]!.base - s.base) <= 0.25 * Math.min(out[k]!.size, s.size)) {
        row = out[k];
        break;
      }
    }
    if (row) {
      row.spans.push(s);
      row.size = Math.max(row.size, s.size);
      row.top = Math.min(row.top, s.box[1]);
      row.bottom = Math.max(row.bottom, s.box[3]);
    } else {
      out.push({ base: s.base, size: s.size, top: s.box[1], bottom: s.box[3], spans: [s] });
    }
  }
  for (const s of small) {
    const mid = (s.box[1] + s.box[3]) / 2;
    const host = out.find(
      (r) => mid >= r.top - 0.2 * r.size && mid <= r.bottom + 0.2 * r.size && r.spans.some((o) => near(o.box, s.box, r.size)),
    );
    if (host) host.spans.push(s);
    else out.push({ base: s.base, size: s.size, top: s.box[1], bottom: s.box[3], spans: [s] });
  }
  return out.sort((a, b) => a.base - b.base);
}

function near(a: Box, b: Box, size: number): boolean {
  return b[0] <= a[2] + size * 0.6 && b[2] >= a[0] - size * 0.6;
}

/**
 * Builds the pieces of one page.
 * @param spans page spans in page units; whitespace-only spans are ignored
 * @param confs OCR confidence (0..1) per span, for OCR'd pages
 * @returns pieces sorted top to bottom, left to right
 */
export function spansToPieces(spans: Span[], confs?: Map<Span, number>): Piece[] {
  const usable = spans.filter((s) => s.text.trim().length > 0 && s.size > 0);
  const pageSize = median(usable.map((s) => s.size)) || 10;
  const out: Piece[] = [];
  for (const row of rows(usable)) {
    const list = row.spans.sort((a, b) => a.box[0] - b.box[0]);
    let cur: Span[] = [];
    const flush = () => {
      if (cur.length) out.push(toPiece(cur, confs));
      cur = [];
    };
    for (const s of list) {
      const last = cur.at(-1);
      if (!last) {
        cur.push(s);
        continue;
      }
      if (isDuplicate(last, s)) continue;
      const gap = s.box[0] - last.box[2];
      const em = Math.max(last.size, s.size);
      const joined = cur.map((c) => c.text).join('').trim();
      const marker =
        (BULLET.test(joined) || ENUMERATOR.test(joined)) && gap <= 4 * em
          ? true
          : SECTION_NUMBER.test(joined) && gap <= 2.5 * em && Math.abs(last.size - s.size) < 0.6 &&
            ((last.bold && s.bold) || last.size >= pageSize * 1.15);
      if (gap <= PIECE_GAP_EM * em || marker) cur.push(s);
      else {
        flush();
        cur.push(s);
      }
    }
    flush();
  }
  return out.sort((a, b) => a.base - b.base || a.box[0] - b.box[0]);
}

/** Fake bold is often drawn twice with a tiny offset: keep one copy. */
function isDuplicate(a: Span, b: Span): boolean {
  return a.text === b.text && Math.abs(a.box[0] - b.box[0]) < a.size * 0.2 && Math.abs(a.base - b.base) < a.size * 0.2;
}

function toPiece(spans: Span[], confs?: Map<Span, number>): Piece {
  let text = '';
  let box = spans[0]!.box;
  let chars = 0;
  let bold = 0;
  let mono = 0;
  let math = 0;
  const sizes = new Map<number, number>();
  let prev: Span | undefined;
  for (const s of spans) {
    if (prev) {
      const gap = s.box[0] - prev.box[2];
      const needSpace = gap > 0.2 * Math.max(s.size, prev.size) && !/\s$/.test(text) && !/^\s/.test(s.text);
      if (needSpace) text += ' ';
    }
    text += s.text;
    box = union(box, s.box);
    const n = s.text.replace(/\s/g, '').length;
    chars += n;
    if (s.bold) bold += n;
    if (s.mono) mono += n;
    if (s.math) math += n;
    const key = Math.round(s.size * 2) / 2;
    sizes.set(key, (sizes.get(key) ?? 0) + n);
    prev = s;
  }
  const size = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? spans[0]!.size;
  const main = spans.find((s) => Math.abs(s.size - size) < 0.5) ?? spans[0]!;
  const d = chars || 1;
  const known = confs ? spans.map((s) => confs.get(s)).filter((c): c is number => c !== undefined) : [];
  return {
    // Monospaced runs keep their inner spacing (code); other text is normalized.
    text: mono / d > 0.8 ? text.trim() : text.replace(/\s+/g, ' ').trim(),
    box,
    base: main.base,
    size,
    bold: bold / d,
    mono: mono / d,
    math: math / d,
    conf: known.length ? known.reduce((a, b) => a + b, 0) / known.length : null,
  };
}
