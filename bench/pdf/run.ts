/**
 * PDF benchmark: pages per second of the pdf parser in `fast` mode beside `pdftotext` (poppler-utils)
 * on the same files, OCR seconds per page (`ocr` mode, 300 dpi renders), and peak RSS of this process
 * (its workers included) for each phase. Inputs are PDFs installed by Debian packages:
 * debian-reference-en, texlive-fonts-recommended-doc (whichever are present).
 *
 *   bun bench/pdf/run.ts [runs=3] [ocrPages=2]
 */
import { existsSync } from 'node:fs';
import * as mupdf from 'mupdf';
import pdf from '../../parsers/pdf.ts';
import { closePdfPool } from '../../parsers/pdf/pool.ts';
import { closeOcrPool } from '../../parsers/ocr/pool.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import type { PluginContext } from '../../core/plugin.ts';

const FILES = [
  '/usr/share/debian-reference/debian-reference.en.pdf',
  '/usr/share/doc/texlive-doc/fonts/txfonts/txfontsdoc.pdf',
  '/usr/share/doc/texlive-doc/fonts/pxfonts/pxfontsdoc.pdf',
  '/usr/share/doc/texlive-doc/fonts/amsfonts/amsfndoc.pdf',
  '/usr/share/doc/texlive-doc/fonts/modes/modes.pdf',
].filter((f) => existsSync(f));

const runs = Number(process.argv[2] ?? 3);
const ocrPages = Number(process.argv[3] ?? 2);

function ctx(): PluginContext {
  return {
    config: loadConfig({ TRAWL_DATA_DIR: '/tmp/trawl-bench' }),
    log: silentLogger,
    signal: new AbortController().signal,
    deadline: Date.now() + 600_000,
    blobs: { put: async () => '', get: async () => undefined, url: (k) => k },
  };
}

/** Samples this process's RSS until stopped; returns the peak in MiB. */
function rssSampler(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage().rss) / 1048576);
  };
}

const hasTime = existsSync('/usr/bin/time');
const pdftotext = (file: string) => ['pdftotext', '-enc', 'UTF-8', file, '/dev/null'];
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function parse(bytes: Uint8Array, options: Record<string, unknown>) {
  return pdf.parse({ bytes, contentType: 'application/pdf', url: 'file:///bench.pdf' }, { type: 'pdf', ...options }, ctx());
}

if (FILES.length === 0) {
  console.log('No input PDFs: apt-get install -y debian-reference-en texlive-fonts-recommended-doc');
  process.exit(1);
}

console.log(`| file | pages | trawl fast (pages/s) | pdftotext (pages/s) | pdftotext peak RSS (MiB) |`);
console.log(`| --- | --- | --- | --- | --- |`);
const stopFast = rssSampler();
await parse(await Bun.file(FILES[0]!).bytes(), { mode: 'fast', maxPages: 1 }); // start the worker
let totalPages = 0;
let totalOurs = 0;
let totalTheirs = 0;
for (const file of FILES) {
  const bytes = await Bun.file(file).bytes();
  let pages = 0;
  const ours: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const doc = await parse(bytes, { mode: 'fast' });
    ours.push(performance.now() - t);
    pages = doc.metadata.numPages as number;
  }
  const theirs: number[] = [];
  let theirRss = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    // GNU time reports the child's own peak RSS (KiB); a forked child's rusage would include ours.
    const proc = Bun.spawnSync(hasTime ? ['/usr/bin/time', '-f', '%M', ...pdftotext(file)] : pdftotext(file));
    theirs.push(performance.now() - t);
    if (hasTime) theirRss = Math.max(theirRss, Math.round(Number(proc.stderr.toString().trim().split('\n').pop()) / 1024));
  }
  totalPages += pages;
  totalOurs += median(ours);
  totalTheirs += median(theirs);
  const name = file.split('/').pop();
  console.log(`| ${name} | ${pages} | ${((pages / median(ours)) * 1000).toFixed(0)} | ${((pages / median(theirs)) * 1000).toFixed(0)} | ${theirRss} |`);
}
const fastPeak = stopFast();
console.log(`| all | ${totalPages} | ${((totalPages / totalOurs) * 1000).toFixed(0)} | ${((totalPages / totalTheirs) * 1000).toFixed(0)} | |`);
console.log(`\nPeak RSS during fast mode (bench process with PDF workers): ${fastPeak} MiB`);

/** Dense prose and table pages of debian-reference, for OCR. */
const OCR_SOURCE_PAGES = [34, 71, 133, 67];

if (ocrPages > 0 && FILES[0]!.includes('debian-reference')) {
  const src = mupdf.Document.openDocument(await Bun.file(FILES[0]!).bytes(), 'application/pdf').asPDF()!;
  const sub = new mupdf.PDFDocument();
  for (const p of OCR_SOURCE_PAGES.slice(0, Math.max(1, ocrPages))) sub.graftPage(-1, src, p - 1);
  const bytes = sub.saveToBuffer('compress').asUint8Array().slice();
  const stopOcr = rssSampler();
  // Cold: the first OCR starts the tesseract workers. Then a warm run over every page.
  let t = performance.now();
  await parse(bytes, { mode: 'ocr', maxPages: 1 });
  const cold = (performance.now() - t) / 1000;
  t = performance.now();
  const doc = await parse(bytes, { mode: 'ocr' });
  const n = doc.metadata.numPages as number;
  const warm = (performance.now() - t) / 1000 / n;
  console.log(`\nOCR (ocr mode, 300 dpi, dense pages): first page incl. worker start ${cold.toFixed(1)} s; ${warm.toFixed(2)} s/page over ${n} pages (wall time, pool of ${Math.min(4, navigator.hardwareConcurrency)} workers)`);
  console.log(`Peak RSS during OCR: ${stopOcr()} MiB`);
}
await closePdfPool();
await closeOcrPool();
