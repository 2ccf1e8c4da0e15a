/**
 * The embedded database in a worker thread, main-thread side: `openRemotePglite` starts
 * pglite-worker.ts and returns a client with PGlite's own `query`/`exec`/`transaction` shapes, so
 * client.ts (and drizzle's PGlite driver) use it like an in-thread PGlite while the WASM Postgres runs
 * on another core. Parameters and rows cross by structured clone (Date, bigint, Uint8Array, parsed
 * JSON survive as they are); errors come back as `DatabaseError` with their Postgres fields.
 * The directory lock is held here, on the main thread, where the process's lock registry lives.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { workerEntry } from '../worker-entry.ts';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { lockPgliteDir } from './pglite.ts';
import { extractTemplate } from './extract-template.ts';
import { startupMark, startupTraceWorkerData } from '../startup-trace.ts';

/** Messages to the worker. `tx` routes a statement into an open transaction. */
export type Request =
  | { id: number; op: 'open'; dir: string | undefined; template?: Blob }
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx?: number; rowMode?: 'object' | 'array'; rawTypes?: number[] }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedDbError };

/** An error as the worker sends it: name, message, stack and the Postgres fields that were set. */
export interface SerializedDbError {
  name: string;
  message: string;
  stack?: string;
  [field: string]: unknown;
}

/** A statement runner: what client.ts and drizzle use of PGlite and of its transactions. */
export interface PgliteRunner {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<unknown>;
}

/** The database: an in-thread PGlite and the worker client both satisfy it. */
export interface PgliteClient extends PgliteRunner {
  transaction<T>(fn: (tx: PgliteRunner) => Promise<T>): Promise<T>;
}

/** A Postgres error raised in the worker: `code` ('23505' ...), `detail`, `constraint` ... as PGlite set them. */
export class DatabaseError extends Error {
  declare severity?: string;
  declare code?: string;
  declare detail?: string;
  declare hint?: string;
  declare constraint?: string;
  declare table?: string;
  declare schema?: string;
  declare query?: string;

  constructor(error: SerializedDbError) {
    super(error.message);
    const { name, message, stack, ...fields } = error;
    Object.assign(this, fields);
    this.name = name;
    if (stack) this.stack = stack;
  }
}

type Body<R> = R extends unknown ? Omit<R, 'id'> : never;
type Refable = Worker & { ref(): void; unref(): void };

/** An open embedded database and how to close it (pglite.ts `OpenedPglite` is one too). */
export interface PgliteHandle {
  pg: PgliteClient;
  close(): Promise<void>;
}

export interface OpenRemotePgliteOptions {
  /** Pre-initialised data directory for an empty `dir` (pglite.ts `OpenPgliteOptions.template`). */
  template?: Blob;
  /** Worker script; default pglite-worker.ts (its copy inside a compiled binary). */
  workerUrl?: string;
}

/**
 * Opens the PGlite database in `dir` inside a new worker thread.
 * @param dir absolute data directory (created if missing, locked by `<dir>.lock`); `undefined`: in memory
 * @returns `pg` and `close()` (closes PGlite, ends the worker, releases the lock; idempotent)
 * @throws what opening PGlite throws (lock held, other major version ...). A worker that dies later
 *         rejects every pending and later call with an Error saying so.
 */
export async function openRemotePglite(dir: string | undefined, options: OpenRemotePgliteOptions = {}): Promise<PgliteHandle> {
  return startRemotePglite(dir, options).opened;
}

/** An embedded database opening in its worker thread (`startRemotePglite`). */
export interface RemotePgliteOpening {
  /** Resolves once the calling thread's part is done (lock, template unpacked, worker told to open). */
  sent: Promise<void>;
  /** The open database, as `openRemotePglite` resolves; rejects with what opening threw. */
  opened: Promise<PgliteHandle>;
}

/**
 * `openRemotePglite` in two steps, so a caller can start the database and go on with other work
 * (loading the rest of the program) once the worker has all it needs.
 * @param dir as for `openRemotePglite`
 * @returns both promises; when the lock is held elsewhere both reject (`sent` too)
 */
export function startRemotePglite(dir: string | undefined, options: OpenRemotePgliteOptions = {}): RemotePgliteOpening {
  let release: () => void;
  try {
    release = dir === undefined ? () => {} : lockPgliteDir(dir);
  } catch (e) {
    return quietly({ sent: Promise.reject(e), opened: Promise.reject(e) });
  }
  const worker = new Worker(options.workerUrl ?? workerEntry('core/db/pglite-worker.ts'), { workerData: startupTraceWorkerData() } as WorkerOptions) as Refable;
  const pending = new Map<number, { resolve(value: any): void; reject(e: Error): void }>();
  let nextId = 1;
  let stopped: Error | undefined;
  let lastError = '';

  const stop = (error: Error) => {
    if (stopped) return;
    stopped = error;
    worker.terminate();
    release();
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.onmessage = (event: MessageEvent) => {
    const reply = event.data as Reply;
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.ok) p.resolve(reply.value);
    else p.reject(new DatabaseError(reply.error));
  };
  worker.onerror = (event: ErrorEvent) => void (lastError = event.message);
  worker.addEventListener('close', (event) => {
    const code = (event as Event & { code?: number }).code;
    stop(new Error(`The embedded database worker stopped unexpectedly (exit code ${code})${lastError ? `: ${lastError}` : ''}`));
  });

  const call = (body: Body<Request>): Promise<any> => {
    if (stopped) return Promise.reject(stopped);
    const msg = body as Request;
    msg.id = nextId++;
    return new Promise((resolve, reject) => {
      try {
        worker.postMessage(msg);
      } catch (e) {
        return reject(e); // a parameter structured clone cannot copy
      }
      if (pending.size === 0) worker.ref();
      pending.set(msg.id, { resolve, reject });
    });
  };

  const runner = (tx?: number): PgliteRunner => ({
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
      if (!options) return call({ op: 'query', sql, params, tx });
      const { rowMode, parsers, ...rest } = options;
      const unsupported = Object.keys(rest).filter((k) => rest[k as keyof typeof rest] !== undefined);
      if (unsupported.length > 0) throw new Error(`Query options ${unsupported.join(', ')} are not supported by the database worker`);
      const rawTypes = parsers ? Object.keys(parsers).map(Number) : undefined;
      const result: Results<T> = await call({ op: 'query', sql, params, tx, rowMode, rawTypes });
      if (parsers) applyParsers(result, parsers, rowMode === 'array');
      return result;
    },
    exec: (sql: string) => call({ op: 'exec', sql, tx }),
  });

  let closing: Promise<void> | undefined;
  const pg: PgliteClient = {
    ...runner(),
    async transaction<T>(fn: (tx: PgliteRunner) => Promise<T>): Promise<T> {
      const tx: number = await call({ op: 'begin' });
      let result: T;
      try {
        result = await fn(runner(tx));
      } catch (e) {
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw e;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
  };
  const close = () =>
    (closing ??= (async () => {
      try {
        if (!stopped) await call({ op: 'close' });
      } finally {
        stop(new Error('The embedded database is closed'));
      }
    })());
  const failed = (e: unknown): never => {
    stop(new Error('The embedded database could not be opened'));
    throw e;
  };
  const sent = (async () => {
    // A template is unpacked here, under the lock, while the worker compiles PGlite: the 40 MB Blob
    // never crosses to the worker, and a directory that holds a database never reads it.
    let template = options.template;
    if (template && dir !== undefined && !existsSync(join(dir, 'PG_VERSION'))) {
      await extractTemplate(template, dir);
      template = undefined;
      startupMark('db:template-extracted');
    }
    startupMark('db:open-sent');
    return { reply: call({ op: 'open', dir, template }) }; // wrapped: `sent` must not wait for it
  })().catch(failed);
  const opened = sent.then(async ({ reply }) => {
    await reply.catch(failed);
    return { pg, close } satisfies PgliteHandle;
  });
  return quietly({ sent: sent.then(() => {}), opened });
}

/** Marks both promises handled (a caller may await only one); awaiting either still sees its error. */
function quietly(opening: RemotePgliteOpening): RemotePgliteOpening {
  opening.sent.catch(() => {});
  opening.opened.catch(() => {});
  return opening;
}

/** Applies main-thread parsers to the columns the worker left as text (drizzle passes such parsers). */
function applyParsers(result: Results<any>, parsers: NonNullable<QueryOptions['parsers']>, arrayMode: boolean): void {
  result.fields.forEach((field, i) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    const key = arrayMode ? i : field.name;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const v = row[key];
      if (v !== null && v !== undefined) row[key] = parse(v as string);
    }
  });
}
