/**
 * Reference copy (turndown rules of the former converter) for bench/markdown/compare.ts.
 *
 * Turndown rules for tables. A data table becomes a GFM table: the first row is the header row (a
 * table without `<th>` uses its first row, as GFM needs one), `colspan` adds empty cells, short rows
 * are padded, pipes are escaped and line breaks inside cells become spaces. A layout table (nested
 * tables, a single column, a single row without headers, `role="presentation"`) is rendered as its
 * content, one block per cell. Replaces turndown-plugin-gfm's table rule, which leaves tables without a
 * heading row as raw HTML.
 */
import type TurndownService from 'turndown';

/** The part of a (domino) DOM node the markdown rules read. */
export interface DNode {
  nodeName: string;
  nodeType: number;
  nodeValue: string | null;
  parentNode: DNode | null;
  childNodes: ArrayLike<DNode>;
  children: ArrayLike<DNode>;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

/** Views a turndown node as a DNode. */
export const asNode = (n: unknown): DNode => n as DNode;

interface TableInfo {
  layout: boolean;
  rows: DNode[];
  cols: number;
  caption?: string;
}

const infoCache = new WeakMap<object, TableInfo>();
const MAX_COLSPAN = 50;

function colspan(cell: DNode): number {
  const n = parseInt(cell.getAttribute('colspan') ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_COLSPAN) : 1;
}

function cellsOf(row: DNode): DNode[] {
  return Array.from(row.childNodes).filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH');
}

function ownRows(table: DNode): DNode[] {
  const rows: DNode[] = [];
  for (const c of Array.from(table.childNodes)) {
    if (c.nodeName === 'TR') rows.push(c);
    else if (c.nodeName === 'THEAD' || c.nodeName === 'TBODY' || c.nodeName === 'TFOOT') {
      for (const r of Array.from(c.childNodes)) if (r.nodeName === 'TR') rows.push(r);
    }
  }
  return rows;
}

function hasDescendant(node: DNode, names: Set<string>): boolean {
  const stack = Array.from(node.childNodes);
  while (stack.length) {
    const n = stack.pop()!;
    if (names.has(n.nodeName)) return true;
    stack.push(...Array.from(n.childNodes));
  }
  return false;
}

const LAYOUT_INSIDE = new Set(['TABLE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const RICH_INSIDE = new Set(['UL', 'OL', 'PRE', 'BLOCKQUOTE', 'DL']);

/** Share of cells holding block content (lists, code blocks, quotes, several paragraphs). */
function richCellShare(rows: DNode[]): number {
  let cells = 0;
  let rich = 0;
  for (const r of rows) {
    for (const c of cellsOf(r)) {
      cells++;
      const ps = Array.from(c.childNodes).filter((k) => k.nodeName === 'P' || k.nodeName === 'DIV').length;
      if (ps >= 2 || hasDescendant(c, RICH_INSIDE)) rich++;
    }
  }
  return cells ? rich / cells : 0;
}

/** Data-or-layout decision and row list of a table (memoized). */
export function tableInfo(table: DNode): TableInfo {
  let info = infoCache.get(table);
  if (info) return info;
  const rows = ownRows(table).filter((r) => cellsOf(r).length > 0);
  const cols = rows.reduce((m, r) => Math.max(m, cellsOf(r).reduce((n, c) => n + colspan(c), 0)), 0);
  const hasTh = rows.some((r) => cellsOf(r).some((c) => c.nodeName === 'TH'));
  const role = (table.getAttribute('role') ?? '').toLowerCase();
  const layout =
    cols <= 1 ||
    rows.length === 0 ||
    (rows.length === 1 && !hasTh) ||
    role === 'presentation' ||
    role === 'none' ||
    hasDescendant(table, LAYOUT_INSIDE) ||
    (rows.length <= 3 ? richCellShare(rows) > 0 : richCellShare(rows) > 0.34);
  const captionNode = Array.from(table.childNodes).find((c) => c.nodeName === 'CAPTION');
  const caption = captionNode?.textContent?.replace(/\s+/g, ' ').trim() || undefined;
  info = { layout, rows, cols, caption };
  infoCache.set(table, info);
  return info;
}

/** The table a cell/row/section belongs to. */
function closestTable(node: DNode): DNode | null {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === 'TABLE') return p;
  return null;
}

/** Whether `node` sits inside a cell of a data table (headings and code blocks flatten there). */
export function inDataCell(node: DNode): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) {
    if (p.nodeName === 'TD' || p.nodeName === 'TH') {
      const t = closestTable(p);
      return !!t && !tableInfo(t).layout;
    }
  }
  return false;
}

function cellText(content: string): string {
  return content
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/(^|[^\\])\|/g, '$1\\|')
    .trim();
}

/** Adds the table rules to a turndown service. */
export function addTableRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement(content, node) {
      const n = asNode(node);
      const table = closestTable(n);
      if (!table || tableInfo(table).layout) return '\n\n' + content + '\n\n';
      let text = cellText(content);
      // A header row written as bold cells: the header row is already emphasized.
      if (tableInfo(table).rows[0] === n.parentNode) text = text.replace(/^\*\*([^*]+)\*\*$/, '$1');
      const extra = ' |'.repeat(colspan(n) - 1);
      const first = cellsOf(n.parentNode!)[0] === n;
      return (first ? '| ' : ' ') + text + (text ? ' |' : '|') + extra;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement(content, node) {
      const n = asNode(node);
      const table = closestTable(n);
      if (!table) return content;
      const info = tableInfo(table);
      if (info.layout) return content;
      const cells = cellsOf(n);
      if (!cells.length) return '';
      const width = cells.reduce((m, c) => m + colspan(c), 0);
      const row = content.trim() + ' |'.repeat(Math.max(0, info.cols - width));
      const isHeader = info.rows[0] === n;
      return '\n' + row + (isHeader ? '\n|' + ' --- |'.repeat(info.cols) : '');
    },
  });
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('tableCaption', {
    filter: 'caption',
    replacement(content, node) {
      const table = closestTable(asNode(node));
      if (table && !tableInfo(table).layout) return '';
      return '\n\n' + content + '\n\n';
    },
  });
  service.addRule('table', {
    filter: 'table',
    replacement(content, node) {
      const info = tableInfo(asNode(node));
      if (info.layout) return '\n\n' + content + '\n\n';
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '');
      if (!body.trim()) return '';
      return '\n\n' + (info.caption ? info.caption + '\n\n' : '') + body + '\n\n';
    },
  });
}
