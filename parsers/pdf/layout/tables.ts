/**
 * Tables from layout: consecutive rows made of several pieces whose x-extents line up in shared
 * columns. Column intervals come from merging the pieces' x-extents over the run; a row without a
 * piece in the first column continues the nearest row that has one (wrapped cells, vertically
 * centred cells). Runs whose columns are all prose are text columns, not tables.
 */
import type { Box, Piece } from './types.ts';
import { union } from './pieces.ts';
import { LEADER } from './patterns.ts';

export interface Table {
  /** Cell texts, first row is the header. */
  cells: string[][];
  box: Box;
  pieces: Piece[];
  conf: number | null;
}

export interface Row {
  base: number;
  size: number;
  pieces: Piece[];
  box: Box;
}

/** Clusters pieces into rows by baseline, pieces of a row sorted left to right. */
export function toRows(pieces: Piece[]): Row[] {
  const sorted = [...pieces].sort((a, b) => a.base - b.base || a.box[0] - b.box[0]);
  const out: Row[] = [];
  for (const p of sorted) {
    const row = out.at(-1);
    if (row && Math.abs(p.base - row.base) <= 0.3 * Math.min(p.size, row.size)) {
      row.pieces.push(p);
      row.box = union(row.box, p.box);
      row.size = Math.max(row.size, p.size);
    } else out.push({ base: p.base, size: p.size, pieces: [p], box: p.box });
  }
  for (const r of out) r.pieces.sort((a, b) => a.box[0] - b.box[0]);
  return out;
}

/** Merged x-intervals of the pieces of multi-piece rows. */
function columns(rows: Row[]): [number, number][] {
  const spans = rows
    .filter((r) => r.pieces.length >= 2)
    .flatMap((r) => r.pieces.map((p) => [p.box[0], p.box[2]] as [number, number]))
    .sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const s of spans) {
    const last = out.at(-1);
    if (last && s[0] <= last[1] + 1) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

function columnOf(p: Piece, cols: [number, number][]): number {
  const mid = (p.box[0] + p.box[2]) / 2;
  let best = -1;
  let bestOverlap = 0;
  cols.forEach(([a, b], i) => {
    const overlap = Math.min(b, p.box[2]) - Math.max(a, p.box[0]);
    if (overlap > bestOverlap || (overlap === bestOverlap && mid >= a && mid <= b)) {
      best = i;
      bestOverlap = overlap;
    }
  });
  return best;
}

/** How many columns a piece overlaps. */
function spanCount(p: Piece, cols: [number, number][]): number {
  return cols.filter(([a, b]) => Math.min(b, p.box[2]) - Math.max(a, p.box[0]) > 1).length;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Checks a run of rows and turns it into a table, or undefined when it is not one. */
function build(run: Row[]): Table | undefined {
  const multi = run.filter((r) => r.pieces.length >= 2);
  if (multi.length < 2 || run.length < 3) return undefined;
  const cols = columns(run);
  if (cols.length < 2) return undefined;
  const distinct = multi.filter((r) => new Set(r.pieces.map((p) => columnOf(p, cols))).size === r.pieces.length);
  if (distinct.length < 0.8 * multi.length) return undefined;
  if (run.some((r) => r.pieces.some((p) => spanCount(p, cols) > 1))) return undefined;
  // Text set in columns is not a table: every column holds long lines.
  const perCol = cols.map((_, i) => run.flatMap((r) => r.pieces.filter((p) => columnOf(p, cols) === i)));
  if (cols.length <= 3 && perCol.every((ps) => median(ps.map((p) => p.text.length)) >= 25)) return undefined;

  // Logical rows: anchored on the first column when it is mostly filled.
  const firstFilled = multi.filter((r) => r.pieces.some((p) => columnOf(p, cols) === 0)).length >= 0.6 * multi.length;
  const isAnchor = (r: Row) => (firstFilled ? r.pieces.some((p) => columnOf(p, cols) === 0) : r.pieces.length >= 2);
  const anchors = run.filter(isAnchor);
  if (anchors.length < 2) return undefined;
  const groups = new Map<Row, Row[]>(anchors.map((a) => [a, [a]]));
  for (const r of run) {
    if (groups.has(r)) continue;
    let best = anchors[0]!;
    for (const a of anchors) if (Math.abs(a.base - r.base) < Math.abs(best.base - r.base)) best = a;
    groups.get(best)!.push(r);
  }
  const cells = anchors.map((a) => {
    const rowPieces = groups.get(a)!.flatMap((r) => r.pieces).sort((x, y) => x.base - y.base || x.box[0] - y.box[0]);
    return cols.map((_, i) => joinCell(rowPieces.filter((p) => columnOf(p, cols) === i)));
  });
  const pieces = run.flatMap((r) => r.pieces);
  const confs = pieces.map((p) => p.conf).filter((c): c is number => c !== null);
  return {
    cells,
    box: pieces.map((p) => p.box).reduce(union),
    pieces,
    conf: confs.length ? confs.reduce((a, b) => a + b, 0) / confs.length : null,
  };
}

function joinCell(pieces: Piece[]): string {
  let out = '';
  for (const p of pieces) {
    if (out.endsWith('-') && /[a-z]-$/i.test(out) && /^[a-z]/.test(p.text)) out = out.slice(0, -1) + p.text;
    else out = out ? `${out} ${p.text}` : p.text;
  }
  return out;
}

/**
 * Finds the tables of a region.
 * @param pieces the region's pieces
 * @returns the tables and the pieces left for text blocks
 */
export function findTables(pieces: Piece[]): { tables: Table[]; rest: Piece[] } {
  const rows = toRows(pieces);
  const tables: Table[] = [];
  let i = 0;
  // Table-of-contents lines (dot leaders) are not table rows.
  const isRow = (r: Row) => r.pieces.length >= 2 && !LEADER.test(r.pieces.map((p) => p.text).join(' '));
  while (i < rows.length) {
    if (!isRow(rows[i]!)) {
      i++;
      continue;
    }
    // Grow a run: multi-piece rows, and single pieces that sit inside the run's columns.
    const run = [rows[i]!];
    let j = i + 1;
    while (j < rows.length) {
      const r = rows[j]!;
      const prev = run.at(-1)!;
      const pitch = r.base - prev.base;
      const pitches = run.slice(1).map((x, k) => x.base - run[k]!.base);
      const limit = Math.max(2.6 * prev.size, pitches.length ? 1.8 * median(pitches) : 0);
      if (pitch > limit) break;
      if (r.pieces.length >= 2 && !isRow(r)) break;
      if (r.pieces.length < 2) {
        const cols = columns(run);
        const p = r.pieces[0]!;
        if (cols.length < 2 || spanCount(p, cols) !== 1 || columnOf(p, cols) === 0 && pitch > 1.6 * prev.size) break;
      }
      run.push(r);
      j++;
    }
    // A trailing lone piece in the first column is more likely the text after the table.
    while (run.length > 1 && run.at(-1)!.pieces.length < 2 && columnOf(run.at(-1)!.pieces[0]!, columns(run)) === 0) {
      run.pop();
      j--;
    }
    const table = build(run);
    if (table) {
      tables.push(table);
      i = j;
    } else i++;
  }
  const used = new Set(tables.flatMap((t) => t.pieces));
  return { tables, rest: pieces.filter((p) => !used.has(p)) };
}

/** Renders cells as a GitHub-flavoured markdown table. */
export function tableMarkdown(cells: string[][]): string {
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  const width = Math.max(...cells.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => esc(r[i] ?? '')).join(' | ')} |`;
  const [head, ...body] = cells;
  return [line(head!), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...body.map(line)].join('\n');
}
