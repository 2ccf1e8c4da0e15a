/**
 * Lines to paragraphs. The rows of a region (tables already taken out) are grouped into blocks: a new
 * block starts at a wider vertical gap, a change of font size, weight or monospacing, a list marker,
 * a first-line indent, or after a short line in justified text. The groups are typed later.
 */
import type { Box, Piece } from './types.ts';
import { toRows } from './tables.ts';
import { union } from './pieces.ts';
import { LEADER, LIST_MARKER } from './patterns.ts';

export interface Line {
  text: string;
  box: Box;
  base: number;
  size: number;
  bold: number;
  mono: number;
  math: number;
  conf: number | null;
}



/** Joins the pieces of each row into lines. */
export function toLines(pieces: Piece[]): Line[] {
  return toRows(pieces).map((r) => {
    const ps = r.pieces;
    const chars = ps.reduce((n, p) => n + p.text.length, 0) || 1;
    const avg = (f: (p: Piece) => number) => ps.reduce((n, p) => n + f(p) * p.text.length, 0) / chars;
    const confs = ps.map((p) => p.conf).filter((c): c is number => c !== null);
    let text = ps[0]!.text;
    for (let i = 1; i < ps.length; i++) {
      const gap = ps[i]!.box[0] - ps[i - 1]!.box[2];
      const mono = ps[i]!.mono > 0.8 && ps[i - 1]!.mono > 0.8;
      text += mono ? ' '.repeat(Math.max(1, Math.round(gap / (0.6 * ps[i]!.size)))) : ' ';
      text += ps[i]!.text;
    }
    return {
      text,
      box: r.box,
      base: r.base,
      size: ps.reduce((m, p) => (p.text.length > m.n ? { n: p.text.length, s: p.size } : m), { n: -1, s: r.size }).s,
      bold: avg((p) => p.bold),
      mono: avg((p) => p.mono),
      math: avg((p) => p.math),
      conf: confs.length ? confs.reduce((a, b) => a + b, 0) / confs.length : null,
    };
  });
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(q * (s.length - 1))] ?? 0;
}

const sameStyle = (a: Line, b: Line) =>
  Math.abs(a.size - b.size) <= Math.max(0.6, 0.08 * a.size) && (a.bold >= 0.8) === (b.bold >= 0.8);

/**
 * A switch between code and prose: one line is monospaced and the other is not, and the code is
 * set apart by its indent (a prose line full of inline paths and commands stays in its paragraph).
 */
const codeSwitch = (a: Line, b: Line) =>
  (a.mono >= 0.8) !== (b.mono >= 0.8) && Math.abs(a.box[0] - b.box[0]) > 0.5 * Math.max(a.size, b.size);

/**
 * Groups lines (top to bottom) into paragraph-like blocks.
 * @returns groups of lines, each a candidate block, in order
 */
export function groupLines(lines: Line[]): Line[][] {
  const pitches: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (sameStyle(lines[i - 1]!, lines[i]!)) pitches.push(lines[i]!.base - lines[i - 1]!.base);
  }
  // The line pitch: a low quantile, since short paragraphs make paragraph gaps common.
  const pitch = quantile(pitches.filter((p) => p > 0), 0.25);
  const groups: Line[][] = [];
  const rightEdge = Math.max(0, ...lines.map((l) => l.box[2]));
  let cur: Line[] = [];
  let right = 0;
  lines.forEach((line, i) => {
    const prev = cur.at(-1);
    if (!prev) {
      cur.push(line);
      right = line.box[2];
      return;
    }
    const gap = line.base - prev.base;
    const em = Math.max(line.size, prev.size);
    const isItem = LIST_MARKER.test(cur[0]!.text);
    const prose = line.mono < 0.8;
    const justified = cur.filter((l) => Math.abs(l.box[2] - right) < 2).length >= 2;
    const overlaps = Math.min(line.box[2], prev.box[2]) - Math.max(line.box[0], prev.box[0]) > 0;
    // First-line indent: this line is indented, the line before ended short of the right edge, and the
    // next line comes back (a hanging indent stays in its paragraph).
    const next = lines[i + 1];
    const indented =
      prose && !isItem && line.box[0] > prev.box[0] + 0.8 * em && prev.box[2] < rightEdge - 2 * em &&
      (!next || !sameStyle(line, next) || Math.abs(next.box[0] - prev.box[0]) < 0.5 * em);
    const split =
      !sameStyle(prev, line) ||
      codeSwitch(prev, line) ||
      gap > Math.max(1.5 * em, pitch ? 1.3 * pitch : 0) ||
      gap <= 0 ||
      !overlaps ||
      LIST_MARKER.test(line.text) ||
      LEADER.test(prev.text) ||
      indented ||
      (isItem && line.box[0] < cur[0]!.box[0] + 0.5 * em) ||
      (prose && justified && prev.box[2] < right - 3 * em);
    if (split) {
      groups.push(cur);
      cur = [line];
      right = line.box[2];
    } else {
      cur.push(line);
      right = Math.max(right, line.box[2]);
    }
  });
  if (cur.length) groups.push(cur);
  return groups;
}

/** The union box of lines. */
export function boxOf(lines: Line[]): Box {
  return lines.map((l) => l.box).reduce(union);
}

/** Joins the lines of a paragraph, undoing end-of-line hyphenation. */
export function joinText(lines: Line[]): string {
  let out = '';
  for (const l of lines) {
    const t = l.text.trim();
    if (!out) out = t;
    else if (/[a-zà-ÿ]-$/i.test(out) && /^[a-zà-ÿ]/.test(t)) out = out.slice(0, -1) + t;
    else out += ` ${t}`;
  }
  return out;
}
