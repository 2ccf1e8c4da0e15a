/**
 * Deadlines as abort signals that can be disposed of. `AbortSignal.timeout(ms)` cannot be stopped:
 * its timer keeps the signal, every signal made from it with `AbortSignal.any`, and whatever their
 * listeners hold reachable until it fires. Per page of a crawl that kept every finished page's
 * document and response alive for the whole scrape timeout (30 s at the default, ~9,000 pages at
 * 300 pages/s, the heap growing by ~60 MB per 1,169-page crawl). A deadline here stops its timer when
 * the work is over. Every per-request deadline that other signals or listeners hang off uses it (the
 * scrape run, the fetch and browser engines, search providers, map, robots and sitemap fetches),
 * most through `withDeadline`, which disposes of it when the work settles.
 */

export interface Deadline {
  /** Aborts at the deadline (reason: a `TimeoutError` DOMException) or when the parent signal does. */
  signal: AbortSignal;
  /** Stops the timer; the signal then never aborts on its own. Safe to call more than once. */
  dispose(): void;
}

/**
 * A signal that aborts after `ms` milliseconds, or with `parent`.
 * @param message the TimeoutError's message
 */
export function deadline(ms: number, parent?: AbortSignal, message = `timed out after ${ms} ms`): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(message, 'TimeoutError')), Math.max(0, ms));
  timer.unref?.(); // work that is never disposed of does not hold the process open
  return {
    signal: parent ? AbortSignal.any([parent, controller.signal]) : controller.signal,
    dispose: () => clearTimeout(timer),
  };
}

/**
 * Runs `work` under a deadline of `ms` milliseconds (or until `parent` aborts) and stops the
 * deadline's timer when the work settles, whichever way. Rejections of `work` pass through as they are.
 * @param work gets the signal to pass to fetches, engines and providers
 */
export async function withDeadline<T>(ms: number, parent: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = deadline(ms, parent);
  try {
    return await work(timeout.signal);
  } finally {
    timeout.dispose();
  }
}

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts first (the timer is then
 * cleared, so nothing keeps running).
 * @throws the abort reason of `signal`
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
