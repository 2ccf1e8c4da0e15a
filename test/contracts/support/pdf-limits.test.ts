/** Contract cases of the `pdf-limits` support plugin (messages as parsers/pdf and parsers/ocr write them). */
import plugin from '../../../plugins/support/pdf-limits.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

const insufficient = (n: number) => `[pdf] not enough time to parse any of the ${n} pages; raise \`timeout\``;

testSupport(plugin, [
  {
    name: 'not enough time for one page: timeout raised to at least 60 s',
    failure: scrapeFailure('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', insufficient(40), 500, { timeout: 1000 }),
    expect: { confidence: 'high', fixParameters: { timeout: 60_000 }, validate: true },
  },
  {
    name: 'a long PDF gets a second a page, at most 300 s',
    failure: scrapeFailure('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', insufficient(120), 500, { timeout: 30_000 }),
    expect: { fixParameters: { timeout: 120_000 } },
  },
  {
    name: 'OCR stopped by the time limit',
    failure: scrapeFailure('PARSE_FAILED', '[pdf] no page could be read: [ocr] recognition stopped: the time limit was reached', 422),
    expect: { confidence: 'high', fixParameters: { timeout: 60_000 } },
  },
  {
    name: 'a batch page that ran out of time',
    failure: { id: 'b1', kind: 'batch_scrape', request: { urls: ['http://127.0.0.1/a.pdf'], timeout: 2000 }, status: 'completed', completed: 0, pageErrors: [{ url: 'http://127.0.0.1/a.pdf', code: 'SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', error: insufficient(3) }] },
    expect: { fixParameters: { timeout: 60_000 }, validate: true },
  },
  {
    name: 'a crawl: the timeout goes into scrapeOptions, the other options kept',
    failure: { id: 'c1', kind: 'crawl', request: { url: 'http://127.0.0.1/', scrapeOptions: { formats: ['markdown'], timeout: 5000 } }, status: 'completed', completed: 2, pageErrors: [{ url: 'http://127.0.0.1/r.pdf', code: 'SCRAPE_TIMEOUT', error: '[ocr] the time limit was reached' }] },
    expect: { fixParameters: { scrapeOptions: { formats: ['markdown'], timeout: 60_000 } } },
  },
  {
    name: 'a plain timeout of a .pdf URL: medium confidence',
    failure: { ...scrapeFailure('SCRAPE_TIMEOUT', 'Scrape of http://127.0.0.1/scan.pdf is still running after 1000 ms', 408, { timeout: 1000 }), url: 'http://127.0.0.1/scan.pdf' },
    expect: { confidence: 'medium', fixParameters: { timeout: 60_000 } },
  },
  {
    name: 'an image over the pixel limit has no parameter fix',
    failure: scrapeFailure('PARSE_FAILED', '[image] the image is too large (20000×20000 pixels; the limit is 100 megapixels)', 422),
    expect: { fixParameters: {}, validate: false },
  },
  { name: 'a timeout of an HTML page is not this class', failure: scrapeFailure('SCRAPE_TIMEOUT', 'timed out', 408, { timeout: 1000 }), expect: null },
  { name: 'an unreadable PDF is not a limit', failure: scrapeFailure('PARSE_FAILED', '[pdf] the file is not a PDF (no %PDF- header in its first 1024 bytes)', 422), expect: null },
]);
