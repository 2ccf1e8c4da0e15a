/**
 * Checks that the PDF and OCR parsers work inside a `bun build --compile` binary (worker entrypoints,
 * embedded mupdf and tesseract WASM, embedded English language data). Build and run it from another
 * directory with node_modules out of reach:
 *
 *   bun build --compile bench/pdf/compiled-check.ts parsers/pdf/worker.ts parsers/ocr/worker.ts \
 *     --outfile /tmp/trawl-pdf-check
 *   cd /tmp && ./trawl-pdf-check some.pdf scan.png
 *
 * Prints one JSON line per file: parser, pages, the first characters of the markdown, or the error.
 */
import pdf from '../../parsers/pdf.ts';
import image from '../../parsers/image.ts';
import { closePdfPool } from '../../parsers/pdf/pool.ts';
import { closeOcrPool } from '../../parsers/ocr/pool.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';

for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  const parser = pdf.accepts.magic!(bytes) ? pdf : image;
  const ctx = {
    config: loadConfig({ TRAWL_DATA_DIR: '/tmp/trawl-compiled-check' }),
    log: silentLogger,
    signal: new AbortController().signal,
    deadline: Date.now() + 120_000,
    blobs: { put: async () => '', get: async () => undefined, url: (k: string) => k },
  };
  const started = Date.now();
  try {
    const doc = await parser.parse({ bytes, contentType: 'application/octet-stream', url: `file://${file}` }, { type: parser.name, mode: 'auto' }, ctx);
    console.log(JSON.stringify({ file, parser: parser.name, ms: Date.now() - started, pages: doc.metadata.numPages, markdown: doc.markdown?.slice(0, 120) }));
  } catch (e) {
    console.log(JSON.stringify({ file, parser: parser.name, error: String(e) }));
  }
}
await closePdfPool();
await closeOcrPool();
