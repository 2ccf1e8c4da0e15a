/**
 * Long synchronous work in slices: a scan written as a generator (`yield` between slices of a few
 * hundred KB or a few thousand items) can be run to the end at once (`runAll`) or with the event loop
 * let in between slices (`runYielding`), so a 30 MB page or a sitemap of a million URLs read in the API
 * process never holds `/health` and every other request for seconds (issue 15 item 8).
 */

/** Lets queued I/O and timers run before continuing. */
export const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs a sliced scan to its end without pausing; returns its result. */
export function runAll<T>(scan: Generator<void, T>): T {
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
  }
}

/** Runs a sliced scan, letting the event loop in between slices; returns its result. */
export async function runYielding<T>(scan: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
    await breathe();
  }
}

/** Size of one slice of text fed to a streaming parser, characters. */
export const SLICE_CHARS = 256 * 1024;
