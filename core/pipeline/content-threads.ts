/**
 * Content threads (main-thread side): the CPU work of turning a fetched web page into its Document
 * (parsing, metadata, cleaning, main content, markdown) runs on a pool of Bun worker threads
 * (content-worker.ts), so one Trawl process uses more than one core for it while its main thread
 * fetches, talks to the database and serves HTTP. A page goes to a thread when the HTML parser reads it
 * and every requested format is `pure` (core/plugin.ts); anything else is built where it was fetched.
 *
 * Threads start on first use. A thread that crashes, or whose task overruns its scrape's deadline by
 * GRACE_MS, is terminated and replaced; its tasks fail (SCRAPE_TIMEOUT for the overrun, a retryable
 * UNKNOWN_ERROR for a crash), never hang. Size: `ResolvedConfig.contentThreads` (0: no pool).
 */
import { workerEntry } from '../worker-entry.ts';
import type { ResolvedConfig } from '../config.ts';
import { scrapeLogger, type Logger } from '../log.ts';
import type { EngineResponse } from '../plugin.ts';
import { TrawlError, type SerializedError } from '../errors.ts';
import type { Document, ScrapeRequest } from '../scrape/document.ts';

/** Time a task may run past its scrape's deadline before its thread is terminated, ms. */
const GRACE_MS = 5_000;

/** A task as the worker receives it. */
export interface ContentTask {
  id: number;
  response: EngineResponse;
  req: ScrapeRequest;
  filename?: string;
}

/** A worker's answer. */
export type ContentReply = { id: number; doc: Document } | { id: number; error: SerializedError };

/** The first message a content worker receives. */
export interface ContentInit {
  config: ResolvedConfig;
}

export interface ContentThreads {
  /** Threads in the pool (started or not). */
  readonly size: number;
  /**
   * Builds the Document of a fetched page on a content thread (core/pipeline/scrape.ts
   * `buildDocument` there).
   * @param deadlineMs epoch ms after which the task's thread is terminated (plus GRACE_MS)
   * @throws TrawlError as the build would (revived from the thread), SCRAPE_TIMEOUT on overrun
   */
  build(response: EngineResponse, req: ScrapeRequest, deadlineMs: number, filename?: string): Promise<Document>;
  /** Terminates the threads; tasks still running fail. */
  close(): Promise<void>;
}

/** Bun's Worker can stop holding the process open while idle. */
type Refable = Worker & { ref(): void; unref(): void };

interface Pending {
  resolve: (doc: Document) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Thread {
  worker: Refable;
  pending: Map<number, Pending>;
}

/**
 * Creates the pool of a process, or undefined when `config.contentThreads` is 0.
 * @param log where crashes and overruns are reported
 */
export function createContentThreads(config: ResolvedConfig, log: Logger): ContentThreads | undefined {
  const size = config.contentThreads;
  if (size <= 0) return undefined;
  const threads: (Thread | undefined)[] = new Array(size).fill(undefined);
  let nextId = 1;
  let closed = false;

  function retire(i: number, thread: Thread, error: TrawlError): void {
    if (threads[i] === thread) threads[i] = undefined;
    thread.worker.terminate();
    for (const p of thread.pending.values()) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    thread.pending.clear();
  }

  function start(i: number): Thread {
    const worker = new Worker(workerEntry('core/pipeline/content-worker.ts')) as Refable;
    const thread: Thread = { worker, pending: new Map() };
    worker.postMessage({ config } satisfies ContentInit);
    worker.onmessage = (event: MessageEvent<ContentReply>) => {
      const reply = event.data;
      const p = thread.pending.get(reply.id);
      if (!p) return;
      thread.pending.delete(reply.id);
      clearTimeout(p.timer);
      if ('doc' in reply) p.resolve(reply.doc);
      else p.reject(TrawlError.fromJSON(reply.error));
      if (thread.pending.size === 0) worker.unref();
    };
    worker.onerror = (event) => {
      log.error({ err: event.message }, 'a content thread crashed; replacing it');
      retire(i, thread, new TrawlError('UNKNOWN_ERROR', `A content thread crashed while building a document: ${event.message}`, { retryable: true }));
    };
    threads[i] = thread;
    return thread;
  }

  /** The thread with the fewest tasks in flight (started on first use). */
  function pick(): { i: number; thread: Thread } {
    let best = 0;
    for (let i = 1; i < size; i++) if ((threads[i]?.pending.size ?? 0) < (threads[best]?.pending.size ?? 0)) best = i;
    return { i: best, thread: threads[best] ?? start(best) };
  }

  return {
    size,
    build(response, req, deadlineMs, filename) {
      if (closed) return Promise.reject(new TrawlError('UNKNOWN_ERROR', 'The content threads are closed (shutting down).', { retryable: true }));
      const { i, thread } = pick();
      const id = nextId++;
      return new Promise<Document>((resolve, reject) => {
        const timer = setTimeout(() => {
          scrapeLogger(log, { url: req.url }, req.options.zeroDataRetention || req.options.lockdown).warn({ threadIndex: i }, 'a content thread overran the deadline; replacing it');
          retire(i, thread, new TrawlError('SCRAPE_TIMEOUT', `Building the document of ${req.sourceURL} did not finish in time. Retry, or raise "timeout".`, { retryable: true }));
        }, Math.max(0, deadlineMs - Date.now()) + GRACE_MS);
        thread.pending.set(id, { resolve, reject, timer });
        thread.worker.ref();
        thread.worker.postMessage({ id, response, req, filename } satisfies ContentTask);
      });
    },
    async close() {
      closed = true;
      threads.forEach((t, i) => t && retire(i, t, new TrawlError('UNKNOWN_ERROR', 'The content threads were closed (shutting down).', { retryable: true })));
    },
  };
}
