/**
 * Independent writes sent as one statement (issue 22 part 4): the writes after a scrape (document,
 * search index, scrape record; then activity and ledger) each cost a statement, a round trip to the
 * embedded database's thread and a commit. A bundle collects the statements its writers issue and,
 * on `flush`, runs them as the data-modifying parts of one `WITH ... SELECT 1`: one parse, one round
 * trip, one commit, all or nothing.
 *
 * Rules: bundle only writes that do not read each other's effects (parts of one statement share one
 * snapshot) and whose returned rows nobody reads (a bundled `query` resolves with no rows). When the
 * combined statement fails, each write runs again on its own, so every writer gets its own success
 * or error, as without the bundle. A statement issued after `flush`, or one that is not an INSERT,
 * UPDATE, DELETE or a `WITH` of such statements, runs on its own at once.
 *
 * A write that must follow others (the charge after the stored document) goes through `after(gate)`:
 * in the combined statement it commits with them or not at all; should the bundle fall back to
 * writes on their own, it runs only once `gate` resolved, and is dropped (nothing written) when
 * `gate` rejects.
 *
 * With `group`, a bundle whose writes are all row-additive (core/store/sql-merge.ts) joins the
 * database's group commit (group-commit.ts): under load, the bundles of concurrent scrapes go as one
 * statement. Should that statement fail, the bundle runs as without `group`.
 */
import type { Queryable } from '../db/client.ts';
import { combine, isRowAdditive } from './sql-merge.ts';
import { GroupFailed, groupCommitOf } from './group-commit.ts';

export interface WriteBundle extends Queryable {
  /**
   * Runs the statements collected so far (one statement when there are several); later statements
   * run on their own. Idempotent.
   */
  flush(): void;
  /**
   * The same bundle for writes that depend on `gate` (e.g. the writes they must follow): combined
   * with the rest while the bundle holds; on their own (fallback, or issued after `flush`) only after
   * `gate` resolved; when `gate` rejects they are not run and resolve with no rows.
   */
  after(gate: Promise<unknown>): Queryable;
}

interface Pending {
  sql: string;
  params: unknown[];
  resolve(rows: never[]): void;
  reject(error: unknown): void;
  gate?: Promise<unknown>;
}

/** Leading keyword of a statement a bundle can hold. */
const WRITE = /^\s*(insert|update|delete|with)\b/i;

export interface WriteBundleOptions {
  /** Join the database's group commit when every write is row-additive (default false). */
  group?: boolean;
}

/**
 * A bundle over `db`.
 * @param db where the statements run (the process database, never a transaction handle in use elsewhere)
 */
export function writeBundle(db: Queryable, options: WriteBundleOptions = {}): WriteBundle {
  let pending: Pending[] | undefined = [];
  const query = <T>(sql: string, params: unknown[] = [], gate?: Promise<unknown>): Promise<T[]> => {
    if (!pending || !WRITE.test(sql)) return gated(gate, () => db.query<T>(sql, params));
    return new Promise<T[]>((resolve, reject) => pending!.push({ sql, params, resolve: resolve as Pending['resolve'], reject, gate }));
  };
  return {
    query: (sql, params) => query(sql, params),
    after: (gate) => ({ query: (sql, params) => query(sql, params, gate) }),
    flush() {
      const writes = pending;
      pending = undefined;
      if (!writes || writes.length === 0) return;
      if (options.group && writes.every((w) => isRowAdditive(w.sql))) {
        groupCommitOf(db).commit(writes.map(({ sql, params }) => ({ sql, params }))).then(
          () => writes.forEach((w) => w.resolve([])),
          // A group of one was this bundle's own statement: its writes go on their own at once.
          (e) => runOwn(db, writes, e instanceof GroupFailed && e.members === 1),
        );
        return;
      }
      runOwn(db, writes);
    },
  };
}

/**
 * Runs a bundle's writes as one statement; when that fails (or cannot be made), or with `separately`,
 * each on its own after its gate.
 */
function runOwn(db: Queryable, writes: Pending[], separately = false): void {
  const alone = (w: Pending) => gated(w.gate, () => db.query(w.sql, w.params)).then(() => w.resolve([]), w.reject);
  const combined = writes.length > 1 && !separately ? combine(writes) : undefined;
  if (!combined) {
    for (const w of writes) void alone(w);
    return;
  }
  db.query(combined.sql, combined.params).then(
    () => writes.forEach((w) => w.resolve([])),
    () => writes.forEach((w) => void alone(w)),
  );
}

/** `run` at once, or once `gate` resolved; nothing (no rows) when `gate` rejects. */
function gated<T>(gate: Promise<unknown> | undefined, run: () => Promise<T[]>): Promise<T[]> {
  return gate ? gate.then(run, () => [] as T[]) : run();
}
