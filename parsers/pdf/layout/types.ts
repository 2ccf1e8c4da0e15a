/**
 * Shapes shared by the layout engine: what a page looks like before layout (`PageText`: positioned
 * text pieces from mupdf or from OCR) and after (`PageLayout`: typed blocks in reading order). All
 * coordinates are page units (PDF points for PDFs, pixels for images) with y growing downwards.
 * The engine knows nothing about mupdf or tesseract, so PDFs and images share it.
 */

/** [x0, y0, x1, y1], y down. */
export type Box = [number, number, number, number];

/** One run of text in one font on one baseline (a mupdf span, or an OCR word group). */
export interface Span {
  text: string;
  box: Box;
  /** Baseline y. */
  base: number;
  /** Font size in page units. */
  size: number;
  bold: boolean;
  italic: boolean;
  mono: boolean;
  /** A math font (cmmi, cmsy, msam ...): marks formulas. */
  math: boolean;
}

/**
 * A piece of one visual row: spans on one baseline with no wide gap between them. A table row is
 * several pieces; a line of a text column is one.
 */
export interface Piece {
  text: string;
  box: Box;
  base: number;
  size: number;
  /** Share of characters in bold / mono / math fonts, 0..1. */
  bold: number;
  mono: number;
  math: number;
  /** OCR confidence 0..1, null for embedded text. */
  conf: number | null;
}

/** What the layout engine takes per page. */
export interface PageText {
  /** Physical page number, from 1. */
  pageNumber: number;
  width: number;
  height: number;
  pieces: Piece[];
  /** Image areas large enough to be figures. */
  figures: Box[];
  source: 'native_text' | 'layout_ocr';
  /** Render size in px when the page was rendered (OCR), else null (interface.md, PDF block page entry). */
  rendered: { width: number; height: number } | null;
  status: 'ok' | 'partial' | 'failed';
}

/**
 * Block types of interface.md (title, section_header, text, table, formula, figure, caption,
 * page_number, page_header, page_footer) plus `list_item` and `code` ("new values may appear").
 */
export type BlockType =
  | 'title'
  | 'section_header'
  | 'text'
  | 'list_item'
  | 'code'
  | 'table'
  | 'formula'
  | 'figure'
  | 'caption'
  | 'page_number'
  | 'page_header'
  | 'page_footer';

/** A laid-out block. `markdown` is its fragment; furniture (headers, footers, numbers) is not emitted. */
export interface Block {
  type: BlockType;
  /** Raw label from the heuristic that chose the type (e.g. `heading-size-2`, `table-aligned`). */
  label: string;
  markdown: string;
  box: Box;
  /** Heading level 1..6 for title / section_header. */
  level?: number;
  /** Whether the block is part of the markdown (false for page furniture and figures). */
  emitted: boolean;
  /** Mean OCR confidence 0..1, null for embedded text. */
  conf: number | null;
}

export interface PageLayout {
  pageNumber: number;
  width: number;
  height: number;
  rendered: { width: number; height: number } | null;
  source: PageText['source'];
  status: PageText['status'];
  blocks: Block[];
}

/** Document-wide measures the per-page steps need. */
export interface DocStats {
  /** Most common font size, weighted by characters. */
  bodySize: number;
  /** Distinct heading sizes, largest first (each larger than the body size). */
  headingSizes: number[];
}
