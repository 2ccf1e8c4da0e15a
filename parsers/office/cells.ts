/**
 * Spreadsheet cells to text and rows to markdown tables, shared by the xlsx and csv parsers. Dates
 * become ISO dates, formulas their cached result, rich text its plain text, hyperlinks markdown links.
 * Fully empty rows and columns are dropped; the first remaining row is the table header.
 */
import { tableMarkdown } from '../pdf/layout/tables.ts';

/** A cell value as exceljs gives it (or a string from CSV). */
export type CellValue = unknown;

function number(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function date(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}

/** The display text of a cell value. */
export function cellText(v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return number(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return date(v);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as { text: string }[]).map((r) => r.text).join('');
    if (typeof o.hyperlink === 'string') {
      const text = cellText(o.text);
      return text && text !== o.hyperlink ? `[${text}](${o.hyperlink})` : String(o.hyperlink);
    }
    if ('formula' in o || 'sharedFormula' in o) return cellText(o.result);
    if (typeof o.error === 'string') return o.error;
    if ('text' in o) return cellText(o.text);
  }
  return String(v);
}

/**
 * Renders rows of cell texts as a markdown table; empty rows and columns are dropped.
 * @returns the table, or '' when every cell is empty
 */
export function rowsMarkdown(rows: string[][]): string {
  const kept = rows.filter((r) => r.some((c) => c.trim() !== ''));
  if (!kept.length) return '';
  const width = Math.max(...kept.map((r) => r.length));
  const usedCols = Array.from({ length: width }, (_, i) => i).filter((i) => kept.some((r) => (r[i] ?? '').trim() !== ''));
  return tableMarkdown(kept.map((r) => usedCols.map((i) => r[i] ?? '')));
}
