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
 */
import type { Queryable } from '../db/client.ts';

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

/**
 * A bundle over `db`.
 * @param db where the statements run (the process database, never a transaction handle in use elsewhere)
 */
export function writeBundle(db: Queryable): WriteBundle {
  let pending: Pending[] | undefined = [];
  const gated = <T>(gate: Promise<unknown> | undefined, run: () => Promise<T[]>): Promise<T[]> =>
    gate ? gate.then(run, () => [] as T[]) : run();
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
      const alone = (w: Pending) => gated(w.gate, () => db.query(w.sql, w.params)).then(() => w.resolve([]), w.reject);
      const combined = writes.length > 1 ? combine(writes) : undefined;
      if (!combined) {
        for (const w of writes) void alone(w);
        return;
      }
      db.query(combined.sql, combined.params).then(
        () => writes.forEach((w) => w.resolve([])),
        () => writes.forEach((w) => void alone(w)),
      );
    },
  };
}

/** One `WITH` statement running every write, parameters renumbered; undefined when one cannot be split. */
function combine(writes: Pending[]): { sql: string; params: unknown[] } | undefined {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [i, w] of writes.entries()) {
    const offset = params.length;
    const sql = w.sql.trim().replace(/;\s*$/, '').replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    params.push(...w.params);
    const split = splitWith(sql);
    if (!split) return undefined;
    let main = split.main;
    for (const cte of split.ctes) {
      const name = `w${i}_${cte.name}`;
      const word = new RegExp(`\\b${cte.name}\\b`, 'g');
      for (const other of split.ctes) other.body = other.body.replace(word, name);
      main = main.replace(word, name);
      cte.name = name;
    }
    for (const cte of split.ctes) parts.push(`${cte.name} AS (${cte.body})`);
    parts.push(`w${i} AS (${main})`);
  }
  return { sql: `WITH ${parts.join(',\n')}\nSELECT 1`, params };
}

/**
 * A statement's own `WITH` list and main statement (no list: `ctes` empty). Undefined when the text
 * does not parse as `WITH name AS (...), ... <insert|update|delete>`.
 */
function splitWith(sql: string): { ctes: { name: string; body: string }[]; main: string } | undefined {
  if (!/^with\b/i.test(sql)) return /^(insert|update|delete)\b/i.test(sql) ? { ctes: [], main: sql } : undefined;
  const ctes: { name: string; body: string }[] = [];
  let at = 4;
  for (;;) {
    const head = /^\s*([a-z_][a-z0-9_]*)\s+as\s*\(/i.exec(sql.slice(at));
    if (!head) return undefined;
    const open = at + head[0].length - 1;
    const close = matchingParen(sql, open);
    if (close < 0) return undefined;
    ctes.push({ name: head[1]!, body: sql.slice(open + 1, close) });
    at = close + 1;
    const comma = /^\s*,/.exec(sql.slice(at));
    if (!comma) break;
    at += comma[0].length;
  }
  const main = sql.slice(at).trim();
  return /^(insert|update|delete)\b/i.test(main) ? { ctes, main } : undefined;
}

/** Index of the parenthesis closing the one at `open` (quoted text skipped), or -1. */
function matchingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
