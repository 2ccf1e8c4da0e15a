/**
 * Embedded database worker thread entry: opens PGlite (pglite.ts) and answers pglite-remote.ts, so
 * the WASM Postgres and its JS run on another core than HTTP and the scrape pipeline. Each request
 * runs as it arrives and PGlite queues statements itself, so ordering is what one in-thread PGlite
 * would give. A transaction (`begin`) is one `pg.transaction` callback kept open until `end`: PGlite's
 * mutex keeps every other statement out meanwhile, exactly as in-thread.
 *
 * Messages in:  Request (pglite-remote.ts); `open` first, `close` last.
 * Messages out: Reply `{ id, ok: true, value }` | `{ id, ok: false, error: SerializedDbError }`.
 *
 * Compiled binary: listed as an extra build entrypoint (bin/build.ts); it lands at
 * `/$bunfs/root/core/db/pglite-worker.js` (pglite-remote.ts starts it from there).
 */
import type { QueryOptions, Transaction } from '@electric-sql/pglite';
import { openPglite, warmUpPglite, type OpenedPglite } from './pglite.ts';
import type { Reply, Request, SerializedDbError } from './pglite-remote.ts';
import { startupMark } from '../startup-trace.ts';

declare const self: Worker;

/** Postgres error fields (pg-protocol DatabaseError) and PGlite's additions, copied onto the wire. */
const ERROR_FIELDS = [
  'severity', 'code', 'detail', 'hint', 'position', 'internalPosition', 'internalQuery', 'where', 'schema',
  'table', 'column', 'dataType', 'constraint', 'file', 'routine', 'query', 'params',
] as const;

interface OpenTransaction {
  tx?: Transaction;
  end(commit: boolean): void;
  done: Promise<void>;
}

startupMark('worker:eval', 'db');
// Compile the database's WebAssembly while the main thread prepares the data directory.
warmUpPglite();

let opened: OpenedPglite | undefined;
const transactions = new Map<number, OpenTransaction>();
let nextTx = 1;
const identity = (value: unknown) => value;

function serializeError(e: unknown): SerializedDbError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const out: SerializedDbError = { name: e.name, message: e.message, stack: e.stack };
  const fields = e as unknown as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    const value = fields[key];
    if (value !== undefined && (typeof value !== 'object' || key === 'params')) out[key] = value;
  }
  return out;
}

function pg() {
  if (!opened) throw new Error('The embedded database is not open');
  return opened.pg;
}

function runner(tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return pg();
  const open = transactions.get(tx)?.tx;
  if (!open) throw new Error('Transaction is closed');
  return open;
}

/** Starts a transaction and resolves with its id once BEGIN ran; it stays open until `end`. */
async function begin(): Promise<number> {
  const id = nextTx++;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let end!: (commit: boolean) => void;
  const ended = new Promise<boolean>((resolve) => (end = resolve));
  const entry: OpenTransaction = { end, done: Promise.resolve() };
  transactions.set(id, entry);
  entry.done = pg().transaction(async (tx) => {
    entry.tx = tx;
    started();
    if (!(await ended)) await tx.rollback();
  });
  entry.done.catch(() => {}); // reported to `end`, or to `begin` below when BEGIN failed
  try {
    await Promise.race([running, entry.done]);
  } catch (e) {
    transactions.delete(id);
    throw e;
  }
  return id;
}

async function endTransaction(id: number, commit: boolean): Promise<void> {
  const entry = transactions.get(id);
  if (!entry) throw new Error('Transaction is closed');
  transactions.delete(id);
  entry.end(commit);
  await entry.done;
}

async function handle(msg: Request): Promise<unknown> {
  switch (msg.op) {
    case 'open':
      opened = await openPglite(msg.dir, { template: msg.template, lock: false });
      return undefined;
    case 'query': {
      const options: QueryOptions | undefined = msg.rawTypes || msg.rowMode
        ? { rowMode: msg.rowMode, parsers: msg.rawTypes && Object.fromEntries(msg.rawTypes.map((t) => [t, identity])) }
        : undefined;
      const { rows, fields, affectedRows } = await runner(msg.tx).query(msg.sql, msg.params, options);
      return { rows, fields, affectedRows };
    }
    case 'exec':
      await runner(msg.tx).exec(msg.sql);
      return undefined;
    case 'begin':
      return begin();
    case 'end':
      return endTransaction(msg.tx, msg.commit);
    case 'close': {
      for (const id of [...transactions.keys()]) await endTransaction(id, false).catch(() => {});
      await opened?.close();
      opened = undefined;
      return undefined;
    }
  }
}

function fail(id: number, e: unknown): void {
  self.postMessage({ id, ok: false, error: serializeError(e) } satisfies Reply);
}

self.onmessage = (event: MessageEvent) => {
  const msg = event.data as Request;
  handle(msg).then((value) => {
    try {
      self.postMessage({ id: msg.id, ok: true, value } satisfies Reply);
    } catch (e) {
      fail(msg.id, e); // a value structured clone cannot copy
    }
  }, (e: unknown) => fail(msg.id, e));
};
