/**
 * PDF worker thread entry: loads mupdf (its WASM embedded as an asset, so it also loads inside a
 * `bun build --compile` binary) and runs one document job at a time for pool.ts. OCR is asked of the
 * main thread (the tesseract pool lives there) with `ocr` messages. Running in a worker lets the pool
 * terminate a runaway file and give the WASM heap back to the system.
 *
 * Messages in:  { type: 'job', job: EngineJob } | { type: 'ocr-result', id, result?, error? }
 * Messages out: { type: 'ocr', id, png } | { type: 'done', result, heap } | { type: 'failed', error, heap }
 *
 * Compiled binary: list this file as an extra build entrypoint; it lands at
 * `/$bunfs/root/parsers/pdf/worker.js` (pool.ts starts it from there).
 */
// mupdf's package exports only its JS entry, so the WASM is addressed by path.
import wasmPath from '../../node_modules/mupdf/dist/mupdf-wasm.wasm' with { type: 'file' };
import { readFile } from 'node:fs/promises';
import type * as Mupdf from 'mupdf';
import { TrawlError } from '../../core/errors.ts';
import { runJob } from './engine.ts';
import type { EngineJob } from './job.ts';
import type { OcrResult } from '../ocr/result.ts';

declare const self: Worker;

let mupdf: Promise<typeof Mupdf> | undefined;

function loadMupdf(): Promise<typeof Mupdf> {
  mupdf ??= (async () => {
    const wasmBinary = await readFile(wasmPath);
    (globalThis as { $libmupdf_wasm_Module?: unknown }).$libmupdf_wasm_Module = { wasmBinary };
    const lib = await import('mupdf');
    lib.setLog({ error: () => undefined, warning: () => undefined });
    return lib;
  })();
  return mupdf;
}

/** Current size of the mupdf WASM heap, bytes. */
function heap(): number {
  const m = (globalThis as { $libmupdf_wasm_Module?: { HEAPU8?: Uint8Array } }).$libmupdf_wasm_Module;
  return m?.HEAPU8?.length ?? 0;
}

const pending = new Map<number, { resolve: (r: OcrResult) => void; reject: (e: Error) => void }>();
let nextId = 1;

function ocr(png: Uint8Array): Promise<OcrResult> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    self.postMessage({ type: 'ocr', id, png }, [png.buffer as ArrayBuffer]);
  });
}

self.onmessage = async (event: MessageEvent) => {
  const msg = event.data as { type: string; job?: EngineJob; id?: number; result?: OcrResult; error?: string };
  if (msg.type === 'ocr-result') {
    const p = pending.get(msg.id!);
    pending.delete(msg.id!);
    if (msg.error !== undefined) p?.reject(new Error(msg.error));
    else p?.resolve(msg.result!);
    return;
  }
  if (msg.type !== 'job') return;
  try {
    const lib = await loadMupdf();
    const result = await runJob(lib, msg.job!, ocr, heap);
    self.postMessage({ type: 'done', result, heap: heap() });
  } catch (e) {
    const error = e instanceof TrawlError ? e : TrawlError.wrap(e, 'PARSE_FAILED');
    self.postMessage({ type: 'failed', error: error.toJSON(), heap: heap() });
  }
};
