/**
 * The PDF worker pool (main thread side). Document jobs run in Bun workers (worker.ts) so a runaway
 * file can be stopped and mupdf's WASM heap is given back: a worker is terminated when its job passes
 * the deadline (plus a grace period) or is aborted, when it crashes, when its heap grew past
 * RECYCLE_BYTES, and after IDLE_MS without work. OCR requests from workers go to the OCR pool with a
 * signal that fires a little before the deadline, so late pages fail softly instead of the job.
 */
import { workerEntry } from '../../core/worker-entry.ts';
import { availableParallelism } from 'node:os';
import type { ParsedDocument, PluginContext } from '../../core/plugin.ts';
import { TrawlError, type SerializedError } from '../../core/errors.ts';
import type { EngineJob } from './job.ts';

const IDLE_MS = 30_000;
/** Time a worker gets past the deadline to finish its reply before it is terminated, ms. */
const GRACE_MS = 3_000;
/** A worker whose mupdf heap grew past this is replaced after its job, bytes. */
const RECYCLE_BYTES = 512 * 1024 * 1024;
/** mupdf heap at which a job stops reading pages, bytes (the WASM heap cannot exceed 2 GiB). */
export const MEMORY_LIMIT_BYTES = 1536 * 1024 * 1024;

/** Bun's Worker can stop holding the process open while idle. */
type Refable = Worker & { ref(): void; unref(): void };

interface Slot {
  worker: Refable;
  busy: boolean;
  /** Fails the running job (pool closed). */
  cancel?: () => void;
}

const size = Math.max(1, Math.min(4, availableParallelism()));
const slots: Slot[] = [];
const waiting: { take: (slot: Slot) => void; fail: (e: Error) => void }[] = [];
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function acquire(signal: AbortSignal): Promise<Slot> {
  clearTimeout(idleTimer);
  const free = slots.find((s) => !s.busy);
  if (free) {
    free.busy = true;
    free.worker.ref();
    return Promise.resolve(free);
  }
  if (slots.length < size) {
    const slot = { worker: new Worker(workerEntry('parsers/pdf/worker.ts')) as Refable, busy: true };
    slots.push(slot);
    return Promise.resolve(slot);
  }
  return new Promise((resolve, reject) => {
    const entry = { take: resolve, fail: reject };
    waiting.push(entry);
    signal.addEventListener('abort', () => {
      const i = waiting.indexOf(entry);
      if (i >= 0) waiting.splice(i, 1);
      reject(new TrawlError('SCRAPE_TIMEOUT', '[pdf] the time limit was reached while waiting for a parser worker'));
    }, { once: true });
  });
}

function release(slot: Slot, keep: boolean): void {
  if (!keep) {
    slot.worker.terminate();
    const i = slots.indexOf(slot);
    if (i < 0) return;
    slots.splice(i, 1);
    const next = waiting.shift();
    if (next) {
      const fresh = { worker: new Worker(workerEntry('parsers/pdf/worker.ts')) as Refable, busy: true };
      slots.push(fresh);
      next.take(fresh);
    }
    return;
  }
  const next = waiting.shift();
  if (next) return next.take(slot);
  slot.busy = false;
  slot.worker.unref();
  if (slots.every((s) => !s.busy)) {
    idleTimer = setTimeout(() => void closePdfPool(), IDLE_MS);
    idleTimer.unref?.();
  }
}

/**
 * Runs a document job in a worker.
 * @param job what to parse (bytes are copied to the worker)
 * @param ctx deadline, abort signal, config (OCR languages) and logger
 * @throws TrawlError from the job (PARSE_FAILED, SCRAPE_UNSUPPORTED_FILE_ERROR ...), SCRAPE_TIMEOUT
 *   when the deadline passes or the signal aborts, PARSE_FAILED when the worker dies
 */
export async function runDocument(job: Omit<EngineJob, 'memoryLimit' | 'ocrParallel'>, ctx: PluginContext): Promise<ParsedDocument> {
  const slot = await acquire(ctx.signal);
  const started = Date.now();
  const ocrStop = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(0, job.deadline - 1000 - Date.now()))]);
  let ocrPool: import('../ocr/pool.ts').OcrPool | undefined;
  return new Promise<ParsedDocument>((resolve, reject) => {
    let settled = false;
    const finish = (keep: boolean, fn: () => void) => {
      if (settled) return;
      settled = true;
      slot.cancel = undefined;
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      release(slot, keep);
      fn();
    };
    const timer = setTimeout(() => {
      finish(false, () => reject(new TrawlError('SCRAPE_TIMEOUT', `[${job.kind}] parsing did not finish before the time limit`, { retryable: true })));
    }, Math.max(0, job.deadline - Date.now()) + GRACE_MS);
    const onAbort = () => finish(false, () => reject(new TrawlError('SCRAPE_TIMEOUT', `[${job.kind}] parsing was stopped: the job was cancelled or timed out`)));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    slot.cancel = () => finish(false, () => reject(new TrawlError('BACKEND_UNAVAILABLE', `[${job.kind}] the parser pool was closed`)));

    slot.worker.onmessage = async (event: MessageEvent) => {
      const msg = event.data as { type: string; id?: number; png?: Uint8Array; result?: ParsedDocument; error?: SerializedError; heap?: number };
      if (msg.type === 'ocr') {
        try {
          ocrPool ??= (await import('../ocr/pool.ts')).ocrPool(ctx.config);
          const result = await ocrPool.recognize(msg.png!, ocrStop);
          if (!settled) slot.worker.postMessage({ type: 'ocr-result', id: msg.id, result });
        } catch (e) {
          if (!settled) slot.worker.postMessage({ type: 'ocr-result', id: msg.id, error: e instanceof Error ? e.message : String(e) });
        }
        return;
      }
      const keep = (msg.heap ?? 0) < RECYCLE_BYTES;
      ctx.log.debug({ ms: Date.now() - started, heap: msg.heap, kind: job.kind }, 'document parsed');
      if (msg.type === 'done') finish(keep, () => resolve(msg.result!));
      else if (msg.type === 'failed') finish(keep, () => reject(TrawlError.fromJSON(msg.error!)));
    };
    slot.worker.onerror = (event: ErrorEvent) => {
      finish(false, () => reject(new TrawlError('PARSE_FAILED', `[${job.kind}] the parser worker failed: ${event.message}`)));
    };
    slot.worker.postMessage({
      type: 'job',
      job: { ...job, memoryLimit: MEMORY_LIMIT_BYTES, ocrParallel: Math.max(1, Math.min(4, availableParallelism())) },
    });
  });
}

/** Terminates every PDF worker (shutdown, tests); jobs still running fail. */
export async function closePdfPool(): Promise<void> {
  clearTimeout(idleTimer);
  for (const w of waiting.splice(0)) w.fail(new TrawlError('BACKEND_UNAVAILABLE', '[pdf] the parser pool was closed'));
  const all = slots.splice(0);
  for (const s of all) s.cancel?.();
  for (const s of all) s.worker.terminate();
}
