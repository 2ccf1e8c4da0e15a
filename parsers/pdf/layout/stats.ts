/**
 * Document statistics: the body font size (most characters are set in it) and the distinct larger
 * sizes that headings use, largest first. Heading levels come from the rank of a size in that list.
 */
import type { DocStats, Piece } from './types.ts';

/** Sizes within this ratio are one size (OCR size estimates are noisy). */
const SAME_SIZE = 1.07;
/** Smallest ratio to the body size for a heading by size. */
export const HEADING_RATIO = 1.15;

/**
 * Computes the document statistics.
 * @param pieces every body piece of the document (furniture excluded)
 */
export function docStats(pieces: Piece[]): DocStats {
  const weight = new Map<number, number>();
  for (const p of pieces) {
    const k = Math.round(p.size * 2) / 2;
    weight.set(k, (weight.get(k) ?? 0) + p.text.length);
  }
  const bodySize = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const bodyChars = weight.get(bodySize) ?? 1;

  const big = [...weight.entries()]
    .filter(([size, chars]) => size >= bodySize * HEADING_RATIO && chars < bodyChars * 0.5)
    .map(([size]) => size)
    .sort((a, b) => b - a);
  const headingSizes: number[] = [];
  for (const s of big) {
    const last = headingSizes.at(-1);
    if (last === undefined || last / s > SAME_SIZE) headingSizes.push(s);
  }
  return { bodySize, headingSizes: headingSizes.slice(0, 5) };
}

/** Heading level (1..6) of a size: its rank among heading sizes; bold body-size headings come after. */
export function levelOf(size: number, stats: DocStats): number {
  const i = stats.headingSizes.findIndex((s) => s / size <= SAME_SIZE && size / s <= SAME_SIZE);
  if (i >= 0) return i + 1;
  const larger = stats.headingSizes.filter((s) => s > size).length;
  return Math.min(6, larger + 1);
}
