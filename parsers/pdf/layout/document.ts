/**
 * The layout engine's entry points: `layoutDocument` turns positioned text of every page into typed
 * blocks in reading order, and `renderMarkdown` joins the emitted blocks into the document markdown,
 * the per-page markdown and the span of each block in the document markdown.
 *
 * Page markers (interface.md `parsers.pageMarkers`): pages are joined by a horizontal rule and an
 * HTML comment naming the physical page number of the page that follows, only between pages:
 * `\n\n---\n\n<!-- Page 2 -->\n\n`. Pages without text add no marker, so numbers can skip.
 */
import type { Block, PageLayout, PageText } from './types.ts';
import { findFurniture } from './furniture.ts';
import { docStats } from './stats.ts';
import { layoutPage } from './page.ts';

/** The separator put before page `n` when page markers are on. */
export function pageMarker(n: number): string {
  return `\n\n---\n\n<!-- Page ${n} -->\n\n`;
}

/** Lays out every page of a document (furniture and heading sizes are measured across pages). */
export function layoutDocument(pages: PageText[]): PageLayout[] {
  const marks = findFurniture(pages);
  const stats = docStats(pages.flatMap((p, i) => p.pieces.filter((x) => !marks[i]!.has(x))));
  const out = pages.map((p, i) => layoutPage(p, marks[i]!, stats));
  // The title: the highest-ranked heading of the first page with text, set as level 1.
  const first = out.find((p) => p.blocks.some((b) => b.emitted));
  const heads = first?.blocks.filter((b) => b.type === 'section_header' && b.label.startsWith('heading-size')) ?? [];
  const title = heads.sort((a, b) => (a.level ?? 9) - (b.level ?? 9))[0];
  if (title) {
    title.type = 'title';
    title.label = 'largest-heading-first-page';
    title.level = 1;
    title.markdown = title.markdown.replace(/^#+/, '#');
  }
  return out;
}

export interface Rendered {
  markdown: string;
  pages: { pageNumber: number; markdown: string }[];
  /** [start, end) of each emitted block in `markdown`, UTF-16 code units (JavaScript string indices). */
  spans: Map<Block, [number, number]>;
}

/**
 * Whether a paragraph runs on from one page to the next: the page ends in text without a sentence
 * end and the next page starts with text in lower case. Without page markers, the two are joined.
 */
function continues(a: Block | undefined, b: Block | undefined): boolean {
  return a?.type === 'text' && b?.type === 'text' && !/[.!?:;)\]"”’]$/.test(a.markdown) && /^\p{Ll}/u.test(b.markdown);
}

/** Joins blocks into markdown, keeping the offsets of each block. */
export function renderMarkdown(layouts: PageLayout[], pageMarkers: boolean): Rendered {
  const spans = new Map<Block, [number, number]>();
  const pages: Rendered['pages'] = [];
  let markdown = '';
  let last: Block | undefined;
  for (const page of layouts) {
    const local: [Block, number, number][] = [];
    let text = '';
    let prev: Block | undefined;
    for (const b of page.blocks) {
      if (!b.emitted || !b.markdown) continue;
      if (prev) text += prev.type === 'list_item' && b.type === 'list_item' ? '\n' : '\n\n';
      local.push([b, text.length, text.length + b.markdown.length]);
      text += b.markdown;
      prev = b;
    }
    pages.push({ pageNumber: page.pageNumber, markdown: text });
    if (!text) continue;
    if (markdown) markdown += pageMarkers ? pageMarker(page.pageNumber) : continues(last, local[0]?.[0]) ? ' ' : '\n\n';
    for (const [b, s, e] of local) spans.set(b, [markdown.length + s, markdown.length + e]);
    markdown += text;
    last = local.at(-1)?.[0];
  }
  return { markdown, pages, spans };
}
