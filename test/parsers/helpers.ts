/**
 * Helpers for the parser tests: a plugin context, the Debian files the tests read (and whether they
 * are installed), PDF subsets made with mupdf, a checker for the `blocks` field list of interface.md,
 * and the character error rate used by the OCR tests.
 */
import { existsSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import type { PluginContext } from '../../core/plugin.ts';

/** From the Debian package `debian-reference-en` (with `debian-reference-common`). */
export const DEBIAN_REFERENCE = '/usr/share/debian-reference/debian-reference.en.pdf';
/** From the Debian package `texlive-fonts-recommended-doc`. */
export const PXFONTS_DOC = '/usr/share/doc/texlive-doc/fonts/pxfonts/pxfontsdoc.pdf';

export const hasDebianReference = existsSync(DEBIAN_REFERENCE);
export const hasPxfontsDoc = existsSync(PXFONTS_DOC);
export const hasPdftoppm = Bun.which('pdftoppm') !== null;
export const hasPdftotext = Bun.which('pdftotext') !== null;

/** A plugin context with a deadline `ms` from now. */
export function pluginContext(ms = 60_000, signal: AbortSignal = new AbortController().signal): PluginContext {
  return {
    config: loadConfig({ TRAWL_DATA_DIR: '/tmp/trawl-test-parsers' }),
    log: silentLogger,
    signal,
    deadline: Date.now() + ms,
    blobs: {
      put: async () => '',
      get: async () => undefined,
      url: (k: string) => k,
    },
  };
}

/**
 * Copies pages of a PDF into a new PDF (physical page numbers, from 1).
 * @returns the new PDF's bytes
 */
export async function pdfPages(file: string, pages: number[]): Promise<Uint8Array> {
  const src = mupdf.Document.openDocument(await Bun.file(file).bytes(), 'application/pdf').asPDF()!;
  const out = new mupdf.PDFDocument();
  for (const p of pages) out.graftPage(-1, src, p - 1);
  return out.saveToBuffer('compress').asUint8Array().slice();
}

const TYPES = new Set(['title', 'section_header', 'text', 'list_item', 'code', 'table', 'formula', 'figure', 'caption', 'page_number', 'page_header', 'page_footer']);
const ITEM_KEYS = ['id', 'type', 'label', 'content', 'markdownSpan', 'bbox', 'readingOrder', 'source', 'confidence'].sort().join();
const PAGE_KEYS = ['pageNumber', 'status', 'width', 'height', 'items'].sort().join();

const isInt = (v: unknown) => Number.isInteger(v);
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

/**
 * Checks `blocks` against interface.md ("PDF block page entry") and against the markdown.
 * @returns the problems found (empty when valid)
 */
export function checkBlocks(blocks: unknown, markdown: string): string[] {
  const errors: string[] = [];
  if (!Array.isArray(blocks)) return ['blocks is not an array'];
  for (const page of blocks as Record<string, unknown>[]) {
    const where = `page ${String(page.pageNumber)}`;
    if (Object.keys(page).sort().join() !== PAGE_KEYS) errors.push(`${where}: keys ${Object.keys(page).join()}`);
    if (!isInt(page.pageNumber) || (page.pageNumber as number) < 1) errors.push(`${where}: pageNumber`);
    if (!['ok', 'partial', 'failed'].includes(page.status as string)) errors.push(`${where}: status ${String(page.status)}`);
    for (const k of ['width', 'height']) if (page[k] !== null && !(isNum(page[k]) && (page[k] as number) > 0)) errors.push(`${where}: ${k}`);
    if (!Array.isArray(page.items)) {
      errors.push(`${where}: items`);
      continue;
    }
    (page.items as Record<string, unknown>[]).forEach((item, i) => {
      const at = `${where} item ${i}`;
      if (Object.keys(item).sort().join() !== ITEM_KEYS) errors.push(`${at}: keys ${Object.keys(item).join()}`);
      if (item.id !== `p${String(page.pageNumber)}.b${i}`) errors.push(`${at}: id ${String(item.id)}`);
      if (item.readingOrder !== i) errors.push(`${at}: readingOrder ${String(item.readingOrder)}`);
      if (typeof item.type !== 'string' || !TYPES.has(item.type)) errors.push(`${at}: type ${String(item.type)}`);
      if (item.label !== null && typeof item.label !== 'string') errors.push(`${at}: label`);
      if (typeof item.content !== 'string') errors.push(`${at}: content`);
      const span = item.markdownSpan as unknown;
      if (span !== null) {
        const ok = Array.isArray(span) && span.length === 2 && isInt(span[0]) && isInt(span[1]) && span[0] >= 0 && span[0] <= span[1] && span[1] <= markdown.length;
        if (!ok) errors.push(`${at}: markdownSpan ${JSON.stringify(span)}`);
        else if (markdown.slice(span[0], span[1]) !== item.content) errors.push(`${at}: markdownSpan does not select content`);
      }
      const bbox = item.bbox as unknown;
      if (bbox !== null) {
        const ok = Array.isArray(bbox) && bbox.length === 4 && bbox.every((v) => isNum(v) && v >= 0 && v <= 1) && bbox[0] <= bbox[2] && bbox[1] <= bbox[3];
        if (!ok) errors.push(`${at}: bbox ${JSON.stringify(bbox)}`);
      }
      if (item.source !== null && typeof item.source !== 'string') errors.push(`${at}: source`);
      const c = item.confidence as Record<string, unknown> | null;
      if (!c || typeof c !== 'object' || Object.keys(c).sort().join() !== 'layout,ocr') errors.push(`${at}: confidence`);
      else {
        if (c.layout !== null && !(isNum(c.layout) && (c.layout as number) >= 0 && (c.layout as number) <= 1)) errors.push(`${at}: confidence.layout`);
        if (c.ocr !== null && !isNum(c.ocr)) errors.push(`${at}: confidence.ocr`);
      }
    });
  }
  return errors;
}

/** Text for comparisons: markdown markup, page furniture marks and all whitespace removed, typography folded. */
export function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/<!--[^>]*-->/g, '')
    .replace(/^\s*(#{1,6}\s|[-*]\s|\|?\s*-{3,}.*$)/gm, '')
    .replace(/[|*`#]/g, '')
    .replace(/[“”„″"]/g, '"')
    .replace(/[‘’‚′']/g, "'")
    .replace(/[–—−‐]/g, '-')
    .replace(/\s+/g, '');
}

/** Levenshtein distance of two strings (two-row dynamic programming). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Character error rate of `hypothesis` against `reference`, on comparable() text. */
export function cer(hypothesis: string, reference: string): number {
  const h = comparable(hypothesis);
  const r = comparable(reference);
  return editDistance(h, r) / Math.max(1, r.length);
}
