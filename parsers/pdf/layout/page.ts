/**
 * Lays out one page: furniture aside, the page is cut into regions in reading order (columns.ts);
 * each region yields tables and typed paragraph blocks, top to bottom. Furniture and figures are
 * added as blocks that are not emitted into the markdown.
 */
import type { Block, BlockType, DocStats, PageLayout, PageText, Piece } from './types.ts';
import { regions } from './columns.ts';
import { findTables, tableMarkdown } from './tables.ts';
import { type Line, groupLines, toLines } from './paragraphs.ts';
import { classify, isCode } from './classify.ts';

/**
 * Lays out a page.
 * @param marks furniture pieces of this page and their types (furniture.ts)
 */
export function layoutPage(page: PageText, marks: Map<Piece, BlockType>, stats: DocStats): PageLayout {
  const body = page.pieces.filter((p) => !marks.has(p));
  const blocks: Block[] = [];
  for (const region of regions(body, page.width)) {
    const { tables, rest } = findTables(region.pieces);
    const items: Block[] = tables.map((t) => ({
      type: 'table',
      label: 'aligned-columns',
      markdown: tableMarkdown(t.cells),
      box: t.box,
      conf: t.conf,
      emitted: true,
    }));
    for (const group of mergeCode(groupLines(toLines(rest)))) items.push(classify(group, stats));
    items.sort((a, b) => a.box[1] - b.box[1]);
    blocks.push(...items);
  }
  demoteLabels(blocks, stats);
  nestLists(blocks, stats);

  const furniture = [...marks].map(([piece, type]): Block => ({
    type,
    label: type === 'page_number' ? 'page-number-pattern' : 'repeated-margin-text',
    markdown: piece.text,
    box: piece.box,
    conf: piece.conf,
    emitted: false,
  }));
  const top = furniture.filter((b) => b.box[1] < page.height / 2).sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  const bottom = furniture.filter((b) => b.box[1] >= page.height / 2).sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  const ordered = [...top, ...blocks, ...bottom];
  for (const f of page.figures) {
    const figure: Block = { type: 'figure', label: 'image', markdown: '', box: f, conf: null, emitted: false };
    const at = ordered.findIndex((b) => b.emitted && b.box[1] > f[1]);
    ordered.splice(at < 0 ? ordered.length - bottom.length : at, 0, figure);
  }
  return {
    pageNumber: page.pageNumber,
    width: page.width,
    height: page.height,
    rendered: page.rendered,
    source: page.source,
    status: page.status,
    blocks: ordered,
  };
}

/**
 * Code blocks interrupted by blank lines come out of grouping as several groups: consecutive code
 * groups that overlap horizontally and are at most a few lines apart are one block.
 */
function mergeCode(groups: Line[][]): Line[][] {
  const out: Line[][] = [];
  for (const g of groups) {
    const prev = out.at(-1);
    const last = prev?.at(-1);
    if (prev && last && isCode(prev) && isCode(g)) {
      const first = g[0]!;
      const near = first.base - last.base <= 4.5 * Math.max(first.size, last.size);
      const overlap = Math.min(first.box[2], last.box[2]) > Math.max(first.box[0], last.box[0]) - 2 * first.size;
      if (near && overlap) {
        prev.push(...g);
        continue;
      }
    }
    out.push(g);
  }
  return out;
}

/**
 * Nesting of list items by indent: an item whose marker sits right of the previous item's marker is
 * one level deeper; it is indented by the width of its parent's marker (`- ` or `1. `).
 */
function nestLists(blocks: Block[], stats: DocStats): void {
  let stack: { x: number; width: number }[] = [];
  let indent = '';
  for (const b of blocks) {
    if (b.type !== 'list_item') {
      stack = [];
      continue;
    }
    const x = b.box[0];
    while (stack.length && x < stack.at(-1)!.x - 0.5 * stats.bodySize) stack.pop();
    const top = stack.at(-1);
    if (!top || x > top.x + 0.8 * stats.bodySize) stack.push({ x, width: (/^(\S+\s)/.exec(b.markdown)?.[1]?.length ?? 2) });
    indent = stack.slice(0, -1).map((s) => ' '.repeat(s.width)).join('');
    if (indent) b.markdown = b.markdown.replace(/^/gm, indent);
  }
}

/**
 * A short bold line set tight against the text below it is a run-in label ("Tip", "Note"), not a
 * heading: it becomes bold text.
 */
function demoteLabels(blocks: Block[], stats: DocStats): void {
  blocks.forEach((b, i) => {
    const next = blocks[i + 1];
    if (b.label !== 'heading-bold' || !next || next.type !== 'text') return;
    if (next.box[1] - b.box[3] < 0.4 * stats.bodySize && Math.abs(next.box[0] - b.box[0]) < stats.bodySize) {
      const text = b.markdown.replace(/^#+\s/, '');
      b.type = 'text';
      b.label = 'run-in-label';
      b.level = undefined;
      b.markdown = `**${text}**`;
    }
  });
}
