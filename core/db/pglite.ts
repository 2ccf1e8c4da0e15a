/**
 * Embedded Postgres (PGlite, PostgreSQL 18 in WASM) for single-process installs without DATABASE_URL.
 * Its runtime files are embedded with `type: 'file'` and handed to PGlite explicitly, because PGlite
 * would otherwise look for them next to its own module (a path baked in at build time that does not
 * exist where a compiled binary runs; notes/stack.md). Memory is kept low with small shared buffers.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { acquireDirLock } from './dir-lock.ts';
import { extractTemplate } from './extract-template.ts';
import { startupMark } from '../startup-trace.ts';
import pgliteWasmPath from '@electric-sql/pglite/pglite.wasm' with { type: 'file' };
import initdbWasmPath from '@electric-sql/pglite/initdb.wasm' with { type: 'file' };
import pgliteDataPath from '@electric-sql/pglite/pglite.data' with { type: 'file' };

/** Server settings: small buffers keep a settled instance near 200-300 MB RSS (notes/stack.md). */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'work_mem=4MB'];

let pgliteModule: Promise<WebAssembly.Module> | undefined;
let initdbModule: Promise<WebAssembly.Module> | undefined;

async function compile(path: string): Promise<WebAssembly.Module> {
  startupMark('wasm:read', 'db');
  const bytes = await Bun.file(path).arrayBuffer();
  startupMark('wasm:compile', 'db');
  const m = await WebAssembly.compile(bytes);
  startupMark('wasm:compiled', 'db');
  return m;
}

function runtimeModule(): Promise<WebAssembly.Module> {
  pgliteModule ??= compile(pgliteWasmPath);
  return pgliteModule;
}

/** Starts compiling PGlite's WebAssembly now, so a later `openPglite` finds it ready (start-up time). */
export function warmUpPglite(): void {
  runtimeModule().catch(() => {
    pgliteModule = undefined; // openPglite compiles again and reports the error
  });
}

/** initdb is only needed for a new data directory with no template; compiled on first need. */
function initdbRuntimeModule(): Promise<WebAssembly.Module> {
  initdbModule ??= compile(initdbWasmPath);
  return initdbModule;
}

export interface OpenPgliteOptions {
  /**
   * A pre-initialised data directory (the tarball of `createPgliteTemplate`). Used only when `dir`
   * holds no database yet; skips initdb, which takes seconds and peaks near 1 GB RSS.
   */
  template?: Blob;
  /**
   * Take `<dir>.lock` here (default true). False when the caller already holds it: the worker path
   * (pglite-remote.ts) locks on the main thread, where the process's registry of held locks lives.
   */
  lock?: boolean;
}

export interface OpenedPglite {
  pg: PGlite;
  /** Closes the database and releases the directory lock. */
  close(): Promise<void>;
}

/** Where the embedded database of a Trawl data directory lives: `<dataDir>/pg`. */
export function pgliteDataDir(dataDir: string): string {
  return join(dataDir, 'pg');
}

/**
 * Locks the embedded database directory `dir` against other openers (`<dir>.lock`, dir-lock.ts),
 * creating its parent directory.
 * @returns a function releasing the lock (idempotent)
 * @throws when another live process, or this one, holds it
 */
export function lockPgliteDir(dir: string): () => void {
  mkdirSync(dirname(dir), { recursive: true });
  return acquireDirLock(`${dir}.lock`, `The embedded database ${dir}`);
}

/**
 * Opens (creating when empty) a PGlite database stored in `dir`, locked against other processes by
 * `<dir>.lock` (dir-lock.ts) unless `options.lock` is false.
 * @param dir absolute directory, created if missing; `undefined` keeps the database in memory
 * @throws when another live process holds the directory, when it holds a database of another
 *         PostgreSQL major version, or is unreadable
 */
export async function openPglite(dir: string | undefined, options: OpenPgliteOptions = {}): Promise<OpenedPglite> {
  let isNew = true;
  let release = () => {};
  if (dir !== undefined) {
    if (options.lock !== false) release = lockPgliteDir(dir);
    mkdirSync(dir, { recursive: true });
    isNew = !existsSync(join(dir, 'PG_VERSION'));
  }
  try {
    if (isNew && options.template !== undefined && dir !== undefined) {
      // Unpacked with plain file writes, then opened like an existing database (extract-template.ts).
      await extractTemplate(options.template, dir);
      isNew = false;
    }
    const useTemplate = isNew && options.template !== undefined;
    const wasm = await runtimeModule();
    startupMark('pglite:create', 'db');
    const pg = await PGlite.create({
      dataDir: dir,
      pgliteWasmModule: wasm,
      initdbWasmModule: isNew && !useTemplate ? await initdbRuntimeModule() : undefined,
      fsBundle: Bun.file(pgliteDataPath),
      loadDataDir: useTemplate ? options.template : undefined,
      startParams: START_PARAMS,
    });
    startupMark('pglite:created', 'db');
    return { pg, close: () => pg.close().finally(release) };
  } catch (e) {
    release();
    throw e;
  }
}

/**
 * Runs initdb once in memory and returns the fresh data directory as a tarball, to seed new databases
 * quickly (`OpenPgliteOptions.template`): tests, or a build step embedding it in the binary.
 * Measured: ~40 MB as 'none' (first open ~0.85 s, ~290 MB RSS), ~4.5 MB as 'gzip' (~1.4 s, ~340 MB),
 * against ~4.6 s and ~940 MB for initdb.
 */
export async function createPgliteTemplate(compression: 'none' | 'gzip' = 'none'): Promise<Blob> {
  const { pg, close } = await openPglite(undefined);
  try {
    return await pg.dumpDataDir(compression);
  } finally {
    await close();
  }
}
