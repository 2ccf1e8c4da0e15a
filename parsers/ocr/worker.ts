/**
 * Tesseract worker thread entry. tesseract.js's own node worker script picks a core build at run time
 * with `require` and reads the `.wasm` next to it, which a `bun build --compile` binary cannot do;
 * this entry wires the same message handler to one fixed core build (SIMD, LSTM only) whose `.wasm`
 * is embedded as an asset. Language data is never downloaded: tesseract.js asks its adapter's
 * `readCache` for `<cachePath>/<lang>.traineddata`; English is answered from the embedded
 * `@tesseract.js-data/eng` file, other languages from `<cachePath>/<lang>.traineddata[.gz]` (the pool
 * sets cachePath to `<dataDir>/tessdata`).
 *
 * Compiled binary: list this file as an extra build entrypoint; it lands at
 * `/$bunfs/root/parsers/ocr/worker.js` (pool.ts starts it from there).
 */
import { parentPort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
// @ts-expect-error tesseract.js ships no types for its worker internals
import worker from 'tesseract.js/src/worker-script/index.js';
// @ts-expect-error tesseract.js-core ships no types
import TesseractCore from 'tesseract.js-core/tesseract-core-simd-lstm.js';
import wasmPath from 'tesseract.js-core/tesseract-core-simd-lstm.wasm' with { type: 'file' };
import engPath from '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz' with { type: 'file' };

let wasmBinary: Uint8Array | undefined;

async function getCore() {
  wasmBinary ??= new Uint8Array(await readFile(wasmPath));
  const binary = wasmBinary;
  return (options: Record<string, unknown>) => TesseractCore({ ...options, wasmBinary: binary });
}

/** The tessdata directory tesseract.js last looked in (for messages). */
let tessdata = '';

/** Language data for `<dir>/<lang>.traineddata`: embedded English, else the file or its `.gz`. */
async function readLanguage(path: string): Promise<Uint8Array> {
  const lang = basename(path).replace(/\.traineddata(\.gz)?$/, '');
  tessdata = dirname(path);
  if (lang === 'eng') return new Uint8Array(await readFile(engPath));
  for (const candidate of [path, `${path}.gz`]) {
    try {
      return new Uint8Array(await readFile(candidate));
    } catch {
      // try the next name
    }
  }
  throw new Error(`no ${lang}.traineddata in ${dirname(path)}`);
}

/** tesseract.js falls back to a download when the cache has no data: refuse, naming what to install. */
const refuse = async (url: string) => {
  const lang = basename(url).replace(/\.traineddata(\.gz)?$/, '');
  throw new Error(`[ocr] no language data for "${lang}": put ${lang}.traineddata or ${lang}.traineddata.gz in ${tessdata || 'the tessdata directory'} (language data is never downloaded)`);
};

worker.setAdapter({
  getCore,
  gunzip: gunzipSync,
  fetch: refuse,
  readCache: readLanguage,
  writeCache: async () => undefined,
  deleteCache: async () => undefined,
  checkCache: async () => false,
});

parentPort!.on('message', (packet: unknown) => {
  worker.dispatchHandlers(packet, (obj: unknown) => parentPort!.postMessage(obj));
});
