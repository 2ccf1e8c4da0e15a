/**
 * Lays out one page: furniture aside, the page is cut into regions in reading order (columns.ts);
 * each region yields tables and typed paragraph blocks, top to bottom. Furniture and figures are
 * added as blocks that are not emitted into the markdown.
 */
import type { Block, BlockType, DocStats, PageLayout, PageText, Piece } from './types.ts';
import { regions } from './columns.ts';
import { findTables, tableMarkdown } from './tables.ts';
import { groupLines, toLines } from './paragraphs.ts';
import { classify } from './classify.ts';

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
    for (const group of groupLines(toLines(rest))) items.push(classify(group, stats));
    items.sort((a, b) => a.box[1] - b.box[1]);
    blocks.push(...items);
  }
  demoteLabels(blocks, stats);

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
