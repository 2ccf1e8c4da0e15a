/**
 * Where a worker thread's entry script is: its `.ts` file in a checkout, or its bundled copy inside a
 * `bun build --compile` binary, where bin/build.ts adds every worker entry as an extra entrypoint and
 * it lands under `/$bunfs/root/` with a `.js` extension. Used by every pool that starts workers (PDF,
 * OCR, embedded database, content threads).
 */
import { fileURLToPath } from 'node:url';

/**
 * @param path the entry's path from the repository root, e.g. `parsers/pdf/worker.ts`
 * @returns a path `new Worker()` accepts
 */
export function workerEntry(path: string): string {
  if (import.meta.url.includes('/$bunfs/')) return `/$bunfs/root/${path.replace(/\.ts$/, '.js')}`;
  return fileURLToPath(new URL(`../${path}`, import.meta.url));
}
