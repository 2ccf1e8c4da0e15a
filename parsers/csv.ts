/**
 * The `csv` parser: comma-, semicolon-, tab- or pipe-separated text (RFC 4180 quoting) to one
 * markdown table, the first row as its header. The delimiter is the candidate that splits the first
 * lines into the same number of fields most consistently. At most MAX_CELLS cells are rendered.
 */
import { defineParser } from '../core/plugin.ts';

/** Cells rendered at most. */
export const MAX_CELLS = 200_000;
const DELIMITERS = [',', ';', '\t', '|'];

/**
 * Splits CSV text into rows of fields.
 * @param limit stop after this many cells
 */
export function parseCsv(text: string, delimiter: string, limit = Infinity): { rows: string[][]; cut: boolean } {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let cells = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      cells += row.length;
      if (cells >= limit) return { rows, cut: i + 1 < text.length };
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return { rows, cut: false };
}

/** The delimiter giving the most consistent field count over the first lines (comma by default). */
export function sniffDelimiter(text: string): string {
  const sample = text.slice(0, 20_000);
  let best = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const rows = parseCsv(sample, d).rows.slice(0, 20).filter((r) => r.length > 1 || r[0] !== '');
    if (rows.length === 0) continue;
    const counts = rows.map((r) => r.length);
    const first = counts[0]!;
    if (first < 2) continue;
    const same = counts.filter((n) => n === first).length / counts.length;
    const score = same * first;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

export default defineParser({
  name: 'csv',
  accepts: { mime: ['text/csv', 'application/csv', 'text/tab-separated-values', 'text/x-csv'], ext: ['.csv', '.tsv'] },
  async parse(input) {
    const [{ decodeText }, { rowsMarkdown }] = await Promise.all([import('./office/decode.ts'), import('./office/cells.ts')]);
    const text = decodeText(input.bytes, input.text);
    const delimiter = input.contentType === 'text/tab-separated-values' || input.filename?.toLowerCase().endsWith('.tsv') ? '\t' : sniffDelimiter(text);
    const { rows, cut } = parseCsv(text, delimiter, MAX_CELLS);
    return {
      markdown: rowsMarkdown(rows),
      metadata: {},
      warning: cut ? `[csv] the file has more than ${MAX_CELLS} cells; the rest was left out` : undefined,
    };
  },
});
