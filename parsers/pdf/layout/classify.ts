/**
 * Typing a paragraph-like group of lines: code (monospaced), caption ("Table 2: ..."), list item,
 * formula (math fonts), heading (larger than body text, or bold and short), or text; and the
 * markdown fragment for it. Heading levels come from the size rank (stats.ts).
 */
import type { Block, DocStats } from './types.ts';
import { type Line, boxOf, joinText } from './paragraphs.ts';
import { LEADER, LIST_MARKER } from './patterns.ts';
import { HEADING_RATIO, levelOf } from './stats.ts';

const CAPTION =
  /^(Table|Figure|Fig\.|Listing|Algorithm|Chart|Exhibit|Plate|Scheme|Diagram|Tableau|Abbildung|Abb\.|Tabelle|Tabla|Figura)\s+[A-Z]?\d+([.\-–]\d+)*[a-z]?\s*[:.—–-]/;

function weighted(lines: Line[], f: (l: Line) => number): number {
  const n = lines.reduce((a, l) => a + l.text.length, 0) || 1;
  return lines.reduce((a, l) => a + f(l) * l.text.length, 0) / n;
}

function mean(values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

/** Escapes what would start a markdown construct at the beginning of a paragraph. */
export function escapeLeading(text: string): string {
  return text
    .replace(/^(#{1,6}\s|>|[-+*]\s|=+\s*$|-{3,}\s*$)/, '\\$1')
    .replace(/^(\d{1,9})([.)])(\s)/, '$1\\$2$3');
}

function listMarkdown(text: string): string {
  const m = /^(\S+)\s+([\s\S]*)$/.exec(text)!;
  const marker = m[1]!;
  const rest = m[2]!;
  if (/^\d{1,9}[.)]$/.test(marker)) return `${marker.slice(0, -1)}. ${rest}`;
  if (/^[•●○◦▪▫■□‣⁃∙·◆◇►▶➢➤✓✔\-–—*+]$/.test(marker)) return `- ${rest}`;
  return `- ${marker} ${rest}`;
}

/**
 * A fenced code block: indentation from the lines' x offsets (a monospaced character is 0.6 em),
 * blank lines where the vertical gap is a line pitch or more.
 */
export function codeMarkdown(lines: Line[]): string {
  const left = Math.min(...lines.map((l) => l.box[0]));
  const pitches = lines.slice(1).map((l, i) => l.base - lines[i]!.base).filter((p) => p > 0);
  const pitch = pitches.length ? Math.min(...pitches) : 0;
  const body = lines
    .map((l, i) => {
      const gap = i > 0 && pitch ? Math.round((l.base - lines[i - 1]!.base) / pitch) - 1 : 0;
      return '\n'.repeat(Math.min(3, Math.max(0, gap))) + ' '.repeat(Math.max(0, Math.round((l.box[0] - left) / (0.6 * l.size)))) + l.text.trimEnd();
    })
    .join('\n');
  const fence = body.includes('```') ? '~~~~' : '```';
  return `${fence}\n${body}\n${fence}`;
}

/** A typographic bullet never starts code, even when the item's text is monospaced. */
const BULLET_ITEM = /^[•●○◦▪▫■□‣⁃∙◆◇►▶➢➤✓✔]\s+\S/;

/** Whether a group of lines is code: set (nearly) all in a monospaced font, not a bulleted item. */
export function isCode(lines: Line[]): boolean {
  return !BULLET_ITEM.test(lines[0]!.text) && weighted(lines, (l) => l.mono) >= 0.8 && lines.every((l) => l.mono >= 0.5);
}

/**
 * Types one group of lines and renders it.
 * @param lines the group, top to bottom (see groupLines)
 */
export function classify(lines: Line[], stats: DocStats): Block {
  const text = joinText(lines);
  const box = boxOf(lines);
  const conf = mean(lines.map((l) => l.conf));
  const size = weighted(lines, (l) => l.size);
  const bold = weighted(lines, (l) => l.bold);
  const base = { box, conf, emitted: true };
  const ending = /[.,;:]$/.test(text) && !/\.\.\.$/.test(text);

  if (isCode(lines)) {
    return { ...base, type: 'code', label: 'monospace', markdown: codeMarkdown(lines) };
  }
  if (CAPTION.test(text) && lines.length <= 6) {
    return { ...base, type: 'caption', label: 'caption-prefix', markdown: escapeLeading(text) };
  }
  if (LEADER.test(text)) {
    return { ...base, type: 'list_item', label: 'toc-entry', markdown: `- ${text.replace(LEADER, ' ')}` };
  }
  // A numbered line in a heading size is a numbered section, not a list item.
  if (LIST_MARKER.test(text) && !(size >= stats.bodySize * HEADING_RATIO && lines.length <= 2)) {
    return { ...base, type: 'list_item', label: 'list-marker', markdown: listMarkdown(text) };
  }
  if (weighted(lines, (l) => l.math) >= 0.5) {
    return { ...base, type: 'formula', label: 'math-font', markdown: escapeLeading(text) };
  }
  const letters = /\p{L}/u.test(text);
  if (letters && size >= stats.bodySize * HEADING_RATIO && lines.length <= 3 && text.length <= 160 && !ending) {
    const level = levelOf(size, stats);
    return { ...base, type: 'section_header', label: `heading-size-${level}`, level, markdown: `${'#'.repeat(level)} ${text}` };
  }
  if (letters && bold >= 0.9 && size >= stats.bodySize * 0.95 && lines.length <= 2 && text.length <= 100 && !ending) {
    const level = levelOf(size, stats);
    return { ...base, type: 'section_header', label: 'heading-bold', level, markdown: `${'#'.repeat(level)} ${text}` };
  }
  return { ...base, type: 'text', label: 'paragraph', markdown: escapeLeading(text) };
}
