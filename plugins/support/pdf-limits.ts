/**
 * Support plugin `pdf-limits`: a PDF or image document that ran into the parser's limits
 * (parsers/pdf, parsers/ocr): not enough time to parse one page (SCRAPE_PDF_INSUFFICIENT_TIME_ERROR),
 * PDF parsing or OCR stopped by the time limit (`[pdf]` / `[ocr]` errors), a scrape of a `.pdf` URL
 * that timed out, or an image over the pixel limit. Scrapes, batches (the request's own error or its
 * pages' errors) and crawls (pages' errors).
 *
 * Time: the fix raises `timeout` (in `scrapeOptions` for a crawl) to a budget for the pages the
 * error names (1 s a page, OCR included, at least 60 s, at most the 300 s maximum); the answer also
 * names `parsers: [{type: "pdf", maxPages}]` and `mode: "fast"` (no OCR) for large documents. An image
 * over the pixel limit has no parameter fix.
 */
import { defineSupport, type SupportFailure } from '../../core/plugin.ts';

/** Largest `timeout` a scrape accepts, ms (interface.md scrape options). */
const MAX_TIMEOUT_MS = 300_000;
const MIN_FIX_MS = 60_000;
/** Time budgeted per page when the error names the page count, ms (OCR pages take 1-3 s here). */
const PER_PAGE_MS = 1_000;
const DEFAULT_TIMEOUT_MS = 30_000;

const TIME_CODES = new Set(['SCRAPE_PDF_INSUFFICIENT_TIME_ERROR']);
const PARSER_TIME = /^\[(pdf|ocr)\].*(time limit|not enough time|before the time limit|timed out)/i;
const IMAGE_TOO_LARGE = /^\[image\] the image is too large/;
const PAGES = /any of the (\d+) pages/;

/** The error of the failure that is a PDF/OCR limit: its own, or its first page error that is one. */
function limitError(f: SupportFailure): { code?: string; message: string; url?: string; byUrl: boolean } | undefined {
  const all = [
    ...(f.error ? [{ code: f.error.code, message: f.error.message, url: f.url }] : []),
    ...(f.pageErrors ?? []).map((e) => ({ code: e.code, message: e.error, url: e.url })),
  ];
  for (const e of all) {
    if ((e.code && TIME_CODES.has(e.code)) || PARSER_TIME.test(e.message ?? '') || IMAGE_TOO_LARGE.test(e.message ?? '')) return { ...e, byUrl: false };
  }
  // A plain timeout of a URL that names a PDF: most likely the parse (OCR) that took the time.
  const e = all[0];
  const isTimeout = e && (e.code === 'SCRAPE_TIMEOUT' || (f.error?.status === 408 && e.code !== 'CONCURRENCY_QUEUE_TIMEOUT'));
  if (isTimeout && e.url && /\.pdf$/i.test(new URL(e.url, 'http://x').pathname)) return { ...e, byUrl: true };
  return undefined;
}

export default defineSupport({
  name: 'pdf-limits',
  diagnose(f) {
    const e = limitError(f);
    if (!e) return undefined;
    if (IMAGE_TOO_LARGE.test(e.message)) {
      return {
        class: 'pdf-limits', confidence: 'high', fixParameters: {}, validate: false,
        answer: `The image ${e.url ?? ''} is over the parser's fixed pixel limit (${e.message}). No request parameter raises it: scale the image down before scraping it, or skip it with "parsers" that leave images out.`,
      };
    }
    const crawl = f.kind === 'crawl';
    const options = (crawl ? f.request.scrapeOptions : f.request) as Record<string, unknown> | undefined;
    const old = typeof options?.timeout === 'number' ? options.timeout : DEFAULT_TIMEOUT_MS;
    const pages = Number(PAGES.exec(e.message)?.[1] ?? 0);
    const timeout = Math.min(MAX_TIMEOUT_MS, Math.max(MIN_FIX_MS, old * 2, pages * PER_PAGE_MS));
    const fixParameters = crawl ? { scrapeOptions: { ...(options ?? {}), timeout } } : { timeout };
    const what = pages ? `a PDF of ${pages} pages` : 'a PDF or scanned document';
    return {
      class: 'pdf-limits',
      confidence: e.byUrl ? 'medium' : 'high',
      fixParameters,
      validate: true,
      answer:
        `${e.url ?? 'The document'} is ${what} that could not be parsed within the time left (${e.code ?? 'timeout'}: ${e.message.slice(0, 200)}). ` +
        `Raise "timeout" to ${timeout} ms${crawl ? ' in "scrapeOptions"' : ''}: text pages take a fraction of a second each, scanned pages need OCR (1-3 s each). ` +
        `For a large document, read fewer pages with "parsers": [{"type": "pdf", "maxPages": N}], or skip OCR with "mode": "fast" when the PDF has a text layer.`,
    };
  },
});
