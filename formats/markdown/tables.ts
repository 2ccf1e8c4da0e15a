/**
 * Tables. A data table becomes a GFM table: the first row is the header row (a table without `<th>`
 * uses its first row, as GFM needs one), `colspan` adds empty cells, short rows are padded, pipes are
 * escaped and line breaks inside cells become spaces. A layout table (nested tables, a single column, a
 * single row without headers, `role="presentation"`, cells holding lists or code blocks) is rendered as
 * its content, one block per cell.
 */
import { isTag, type AnyNode, type Element } from '../../core/html/dom.ts';

export interface TableInfo {
  /** Rendered as content rather than as a GFM table. */
  layout: boolean;
  /** Rows holding at least one cell, sections flattened. */
  rows: Element[];
  /** Widest row, in columns (colspan counted). */
  cols: number;
}

/** Per-conversion memo of table decisions. */
export type TableCache = Map<Element, TableInfo>;

const MAX_COLSPAN = 50;

function colspan(cell: Element): number {
  const n = parseInt(cell.attribs.colspan ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_COLSPAN) : 1;
}

const isCell = (n: AnyNode): n is Element => isTag(n) && (n.name === 'td' || n.name === 'th');

function cellsOf(row: Element): Element[] {
  return row.children.filter(isCell);
}

function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const c of table.children) {
    if (!isTag(c)) continue;
    if (c.name === 'tr') rows.push(c);
    else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') {
      for (const r of c.children) if (isTag(r) && r.name === 'tr') rows.push(r);
    }
  }
  return rows;
}

function hasDescendant(node: Element, names: Set<string>): boolean {
  const stack: AnyNode[] = [...node.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (names.has(n.name)) return true;
    if (n.name !== 'template') for (const k of n.children) stack.push(k);
  }
  return false;
}

const LAYOUT_INSIDE = new Set(['table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const RICH_INSIDE = new Set(['ul', 'ol', 'pre', 'blockquote', 'dl']);

/** Share of cells holding block content (lists, code blocks, quotes, several paragraphs). */
function richCellShare(rows: Element[]): number {
  let cells = 0;
  let rich = 0;
  for (const r of rows) {
    for (const c of cellsOf(r)) {
      cells++;
      const ps = c.children.filter((k) => isTag(k) && (k.name === 'p' || k.name === 'div')).length;
      if (ps >= 2 || hasDescendant(c, RICH_INSIDE)) rich++;
    }
  }
  return cells ? rich / cells : 0;
}

/** Data-or-layout decision and row list of a table (memoized in `cache`). */
export function tableInfo(table: Element, cache: TableCache): TableInfo {
  let info = cache.get(table);
  if (info) return info;
  const rows = ownRows(table).filter((r) => r.children.some(isCell));
  const cols = rows.reduce((m, r) => Math.max(m, cellsOf(r).reduce((n, c) => n + colspan(c), 0)), 0);
  const hasTh = rows.some((r) => r.children.some((c) => isTag(c) && c.name === 'th'));
  const role = (table.attribs.role ?? '').toLowerCase();
  const layout =
    cols <= 1 ||
    rows.length === 0 ||
    (rows.length === 1 && !hasTh) ||
    role === 'presentation' ||
    role === 'none' ||
    hasDescendant(table, LAYOUT_INSIDE) ||
    (rows.length <= 3 ? richCellShare(rows) > 0 : richCellShare(rows) > 0.34);
  info = { layout, rows, cols };
  cache.set(table, info);
  return info;
}

function cellText(content: string): string {
  return content
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/(^|[^\\])\|/g, '$1\\|')
    .trim();
}

/**
 * Markdown of a `td`/`th` inside `table` (its nearest table, or null), within `row`; `first` when it is
 * the row's first cell.
 */
export function tableCell(cell: Element, content: string, table: Element | null, row: Element | null, first: boolean, cache: TableCache): string {
  if (!table || tableInfo(table, cache).layout) return '\n\n' + content + '\n\n';
  let text = cellText(content);
  // A header row written as bold cells: the header row is already emphasized.
  if (tableInfo(table, cache).rows[0] === row) text = text.replace(/^\*\*([^*]+)\*\*$/, '$1');
  const extra = ' |'.repeat(colspan(cell) - 1);
  return (first ? '| ' : ' ') + text + (text ? ' |' : '|') + extra;
}

/** Markdown of a `tr` inside `table` (its nearest table, or null); the header row gets the rule line. */
export function tableRow(row: Element, content: string, table: Element | null, cache: TableCache): string {
  if (!table) return content;
  const info = tableInfo(table, cache);
  if (info.layout) return content;
  const cells = cellsOf(row);
  if (!cells.length) return '';
  const width = cells.reduce((m, c) => m + colspan(c), 0);
  const line = content.trim() + ' |'.repeat(Math.max(0, info.cols - width));
  return '\n' + line + (info.rows[0] === row ? '\n|' + ' --- |'.repeat(info.cols) : '');
}

/** Markdown of a `caption` inside `table` (its nearest table): data tables print it above the table. */
export function tableCaption(content: string, table: Element | null, cache: TableCache): string {
  if (table && !tableInfo(table, cache).layout) return '';
  return '\n\n' + content + '\n\n';
}

/** Markdown of a `table`; `caption` is the text of its first `<caption>` child. */
export function tableBlock(table: Element, content: string, caption: string | undefined, cache: TableCache): string {
  if (tableInfo(table, cache).layout) return '\n\n' + content + '\n\n';
  const body = content.replace(/^\n+/, '').replace(/\n+$/, '');
  if (!body.trim()) return '';
  return '\n\n' + (caption ? caption + '\n\n' : '') + body + '\n\n';
}
