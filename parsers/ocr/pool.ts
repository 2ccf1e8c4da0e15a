/**
 * The OCR worker pool (tesseract.js). Workers start lazily, one recognition at a time each, up to a
 * size set by the machine's cores; they stop after a while without work and on `closeOcrPool()`.
 * Language data never comes from the network: English is embedded, other languages of
 * `config.ocrLanguages` are read from `<dataDir>/tessdata/<lang>.traineddata[.gz]` (worker.ts).
 * A recognition that outlives its caller's abort signal costs its worker, which is terminated.
 */
import { workerEntry } from '../../core/worker-entry.ts';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ResolvedConfig } from '../../core/config.ts';
import { TrawlError } from '../../core/errors.ts';
import { toOcrResult, type OcrResult } from './result.ts';

/** Idle time after which workers are stopped, ms. */
const IDLE_MS = 60_000;
/** Tesseract page segmentation: automatic, no orientation detection. */
const PSM_AUTO = '3';

interface TessWorker {
  recognize(image: Buffer, options: object, output: object): Promise<{ data: unknown }>;
  setParameters(params: Record<string, string>): Promise<unknown>;
  terminate(): Promise<unknown>;
}

interface Slot {
  worker: Promise<TessWorker>;
  busy: boolean;
}

interface Waiter {
  run: (slot: Slot) => void;
  fail: (error: unknown) => void;
}

/** A pool of tesseract workers for one language set. */
export class OcrPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly waiting: Waiter[] = [];
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly languages: string[],
    private readonly tessdataDir: string,
    size = Math.max(1, Math.min(4, availableParallelism())),
  ) {
    this.size = size;
  }

  /**
   * Recognizes the text of an image.
   * @param image PNG, JPEG, TIFF, WebP, BMP or GIF bytes
   * @param signal aborts the wait, or the recognition (its worker is then terminated)
   * @throws TrawlError PARSE_FAILED when tesseract fails, SCRAPE_TIMEOUT when aborted
   */
  async recognize(image: Uint8Array, signal?: AbortSignal): Promise<OcrResult> {
    const slot = await this.acquire(signal);
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      this.discard(slot);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const worker = await slot.worker;
      // The slot was dropped (aborted, or the pool closed) while its worker started: that worker is
      // being terminated, and a job sent to a terminated tesseract.js worker rejects unhandled.
      if (!this.slots.includes(slot)) throw new Error('[ocr] the OCR worker was stopped before the recognition started');
      const { data } = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: false, blocks: true });
      return toOcrResult(data);
    } catch (e) {
      if (aborted) throw new TrawlError('SCRAPE_TIMEOUT', '[ocr] recognition stopped: the time limit was reached');
      this.discard(slot);
      const why = (e instanceof Error ? e.message : String(e)).replace(/^Error: /, '');
      throw new TrawlError('PARSE_FAILED', why.startsWith('[ocr]') ? why : `[ocr] text recognition failed: ${why}`, { cause: e });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!aborted) this.release(slot);
    }
  }

  /** Stops every worker; pending recognitions fail. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    for (const w of this.waiting.splice(0)) w.fail(new TrawlError('BACKEND_UNAVAILABLE', '[ocr] the OCR pool was closed'));
    const slots = this.slots.splice(0);
    await new Promise((resolve) => setTimeout(resolve, 0)); // see `discard`
    await Promise.all(slots.map((s) => s.worker.then((w) => w.terminate()).catch(() => undefined)));
  }

  private acquire(signal?: AbortSignal): Promise<Slot> {
    clearTimeout(this.idleTimer);
    if (signal?.aborted) return Promise.reject(new TrawlError('SCRAPE_TIMEOUT', '[ocr] the time limit was reached'));
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    if (this.slots.length < this.size) {
      const slot: Slot = { worker: this.spawn(), busy: true };
      this.slots.push(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { run: resolve, fail: reject };
      this.waiting.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new TrawlError('SCRAPE_TIMEOUT', '[ocr] the time limit was reached while waiting for an OCR worker'));
        },
        { once: true },
      );
    });
  }

  private release(slot: Slot): void {
    if (!this.slots.includes(slot)) return this.next();
    const waiter = this.waiting.shift();
    if (waiter) return waiter.run(slot);
    slot.busy = false;
    if (this.slots.every((s) => !s.busy)) {
      this.idleTimer = setTimeout(() => void this.close(), IDLE_MS);
      this.idleTimer.unref?.();
    }
  }

  /** Drops a worker that failed or was abandoned, and lets a waiter start a fresh one. */
  private discard(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    // On a later turn: a recognition under way has handed its job to the worker by then (tesseract.js
    // loads the image on a microtask first, and a job sent after `terminate` is an unhandled rejection).
    setTimeout(() => void slot.worker.then((w) => w.terminate()).catch(() => undefined), 0);
    this.next();
  }

  private next(): void {
    const waiter = this.waiting.shift();
    if (!waiter) return;
    const slot: Slot = { worker: this.spawn(), busy: true };
    this.slots.push(slot);
    waiter.run(slot);
  }

  private async spawn(): Promise<TessWorker> {
    const { createWorker } = await import('tesseract.js');
    // tesseract.js reports a failed language load only to `errorHandler` (its promise never settles).
    let fail: (e: Error) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => undefined);
    const created = createWorker(this.languages.join('+'), 1, {
      workerPath: workerEntry('parsers/ocr/worker.ts'),
      cachePath: this.tessdataDir,
      cacheMethod: 'readOnly',
      errorHandler: (e: unknown) => fail(new Error(String(e))),
    } as never);
    const worker = (await Promise.race([created, failed])) as unknown as TessWorker;
    await worker.setParameters({ tessedit_pageseg_mode: PSM_AUTO });
    return worker;
  }
}

let shared: OcrPool | undefined;

/** The process-wide pool for the configured OCR languages (created on first use). */
export function ocrPool(config: ResolvedConfig): OcrPool {
  const languages = config.ocrLanguages.length ? [...config.ocrLanguages] : ['eng'];
  const dir = join(config.dataDir, 'tessdata');
  if (!shared || shared['languages'].join('+') !== languages.join('+') || shared['tessdataDir'] !== dir) {
    void shared?.close();
    shared = new OcrPool(languages, dir);
  }
  return shared;
}

/** Stops the shared pool's workers (shutdown, tests). */
export async function closeOcrPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
