/**
 * The `blocks` array of the Document (interface.md, "PDF block page entry"): one entry per page with
 * `pageNumber`, `status`, `width`/`height` (render size in px, null when the page was never rendered)
 * and `items`, each item with `id` (`p<page>.b<index in reading order>`), `type`, `label`, `content`
 * (markdown fragment), `markdownSpan` ([start, end) in the document markdown, UTF-16 code units, null
 * when the block is not in the markdown), `bbox` (normalized 0..1), `readingOrder`, `source` and
 * `confidence` ({ layout, ocr }).
 */
import type { PageLayout } from './layout/types.ts';
import type { Rendered } from './layout/document.ts';

export interface BlockItem {
  id: string;
  type: string;
  label: string | null;
  content: string;
  markdownSpan: [number, number] | null;
  bbox: [number, number, number, number] | null;
  readingOrder: number;
  source: string | null;
  confidence: { layout: number | null; ocr: number | null };
}

export interface BlockPage {
  pageNumber: number;
  status: 'ok' | 'partial' | 'failed';
  width: number | null;
  height: number | null;
  items: BlockItem[];
}

const clamp = (v: number) => Math.min(1, Math.max(0, Math.round(v * 10000) / 10000));
const round = (v: number) => Math.round(v * 1000) / 1000;

/** Builds the `blocks` array from laid-out pages and their rendering. */
export function blocksOutput(layouts: PageLayout[], rendered: Rendered): BlockPage[] {
  return layouts.map((page) => ({
    pageNumber: page.pageNumber,
    status: page.status,
    width: page.rendered ? page.rendered.width : null,
    height: page.rendered ? page.rendered.height : null,
    items: page.blocks.map((b, i): BlockItem => {
      const span = rendered.spans.get(b);
      const [x0, y0, x1, y1] = b.box;
      return {
        id: `p${page.pageNumber}.b${i}`,
        type: b.type,
        label: b.label,
        content: b.markdown,
        markdownSpan: span ? [span[0], span[1]] : null,
        bbox: page.width > 0 && page.height > 0 ? [clamp(x0 / page.width), clamp(y0 / page.height), clamp(x1 / page.width), clamp(y1 / page.height)] : null,
        readingOrder: i,
        source: page.source,
        confidence: { layout: null, ocr: b.conf === null ? null : round(b.conf) },
      };
    }),
  }));
}
