/**
 * Reading order at the page level: finds text columns and cuts the page into regions read in order.
 * Columns are found from long lines (prose): their left edges cluster, and the lines of one column
 * end before the next column starts. Pieces crossing a column boundary (a title, an abstract, a
 * full-width figure or table) make a full-width zone; between such zones each column is a region,
 * read left to right. Pages without columns are one region.
 */
import type { Piece } from './types.ts';

export interface Region {
  pieces: Piece[];
  x0: number;
  x1: number;
}

const PROSE_CHARS = 25;
const TOL = 3;

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))] ?? 0;
}

interface Cluster {
  x: number;
  lines: Piece[];
}

function clusters(prose: Piece[]): Cluster[] {
  const sorted = [...prose].sort((a, b) => a.box[0] - b.box[0]);
  const out: Cluster[] = [];
  for (const p of sorted) {
    const last = out.at(-1);
    if (last && p.box[0] - last.lines.at(-1)!.box[0] <= 4) last.lines.push(p);
    else out.push({ x: p.box[0], lines: [p] });
  }
  for (const c of out) c.x = quantile(c.lines.map((l) => l.box[0]), 0.5);
  return out;
}

/** Whether the lines of a cluster fill a column that ends before `limit` (prose, not table cells). */
function fillsColumn(c: Cluster, limit: number, pageWidth: number): boolean {
  const ends = c.lines.map((l) => l.box[2]);
  if (ends.filter((e) => e <= limit - 2).length < 0.9 * ends.length) return false;
  const widths = c.lines.map((l) => l.box[2] - c.x);
  const full = quantile(widths, 0.9);
  return full >= 0.18 * pageWidth && quantile(widths, 0.5) >= 0.7 * full;
}

/** Column left edges, or a single entry when the page is one column. */
function columnStarts(pieces: Piece[], pageWidth: number): Cluster[] {
  const prose = pieces.filter((p) => p.text.length >= PROSE_CHARS);
  const min = Math.max(4, 0.12 * prose.length);
  const cands = clusters(prose).filter((c) => c.lines.length >= min);
  if (cands.length < 2) return cands.slice(0, 1);
  const starts: Cluster[] = [cands[0]!];
  for (const c of cands.slice(1)) {
    const prev = starts.at(-1)!;
    if (fillsColumn(prev, c.x, pageWidth)) starts.push(c);
  }
  if (starts.length < 2) return starts;
  const last = starts.at(-1)!;
  return fillsColumn(last, Infinity, pageWidth) ? starts : starts.slice(0, -1).length >= 2 ? starts.slice(0, -1) : [starts[0]!];
}

/**
 * Cuts a page into regions in reading order.
 * @param pieces the page's pieces (furniture removed)
 * @param pageWidth page width in page units
 */
export function regions(pieces: Piece[], pageWidth: number): Region[] {
  const all: Region = { pieces, x0: 0, x1: pageWidth };
  const starts = columnStarts(pieces, pageWidth);
  if (starts.length < 2) return [all];

  // Column k spans [bounds[k], bounds[k+1]).
  const bounds = [-Infinity];
  for (let k = 1; k < starts.length; k++) {
    const prevEnd = quantile(starts[k - 1]!.lines.map((l) => l.box[2]), 0.9);
    bounds.push((prevEnd + starts[k]!.x) / 2);
  }
  bounds.push(Infinity);
  const columnOf = (p: Piece): number => {
    for (let k = 0; k < starts.length; k++) {
      if (p.box[0] >= bounds[k]! - TOL && p.box[2] <= bounds[k + 1]! + TOL) return k;
    }
    return -1;
  };

  // Full-width zones: merged vertical extents of spanning pieces.
  const spanning = pieces.filter((p) => columnOf(p) < 0).sort((a, b) => a.box[1] - b.box[1]);
  const zones: [number, number][] = [];
  for (const p of spanning) {
    const z = zones.at(-1);
    if (z && p.box[1] <= z[1] + p.size * 0.5) z[1] = Math.max(z[1], p.box[3]);
    else zones.push([p.box[1], p.box[3]]);
  }
  const inZone = (p: Piece) => {
    const mid = (p.box[1] + p.box[3]) / 2;
    return zones.findIndex(([t, b]) => mid >= t && mid <= b);
  };

  // Walk down the page: column stretches between full-width zones.
  const out: Region[] = [];
  const edges = [-Infinity, ...zones.flatMap(([t, b]) => [t, b]), Infinity];
  for (let z = 0; z <= zones.length; z++) {
    const top = edges[2 * z]!;
    const bottom = edges[2 * z + 1]!;
    const stretch = pieces.filter((p) => inZone(p) < 0 && (p.box[1] + p.box[3]) / 2 > top && (p.box[1] + p.box[3]) / 2 < bottom);
    for (let k = 0; k < starts.length; k++) {
      const col = stretch.filter((p) => columnOf(p) === k);
      if (col.length) out.push({ pieces: col, x0: Math.max(0, bounds[k]!), x1: Math.min(pageWidth, bounds[k + 1]!) });
    }
    if (z < zones.length) out.push({ pieces: pieces.filter((p) => inZone(p) === z), x0: 0, x1: pageWidth });
  }
  return out;
}
