/**
 * SQL text of several writes made into one statement (issue 22 part 4), for the write bundle
 * (write-bundle.ts) and group commit (group-commit.ts):
 *
 * - `combine`: independent statements as the data-modifying parts of one `WITH ... SELECT 1`;
 * - `mergeRows`: K copies of one row-additive statement (`rowAdditive`) as one statement whose
 *   `VALUES` list holds the K rows.
 *
 * Parameters are `$n` placeholders; the merged text numbers them anew and the parameters are
 * concatenated in the same order. Quoted text is skipped when looking for parentheses.
 */

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** One `WITH` statement running every write, parameters renumbered; undefined when one cannot be split. */
export function combine(writes: readonly Statement[]): Statement | undefined {
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

/** How a row-additive statement's text splits around its one `VALUES (...)` row. */
interface RowShape {
  head: string;
  row: string;
  tail: string;
  /** Parameters of one copy (`$1..$n`, all inside the row). */
  arity: number;
  /** Number of the declaration (names the statement in a group's cached text). */
  id: number;
}

const shapes = new Map<string, RowShape>();

/**
 * Declares `sql` row-additive: K copies of it (each with its own parameters) do what one statement
 * with the K rows in its `VALUES` list does, in any order; so they may be merged (`mergeRows`).
 * True of a plain `INSERT ... VALUES (...)` (a conflict between two of the rows fails the merged
 * statement, and the caller runs the copies on their own), and of a statement that uses what such an
 * insert returns only through sums per key (core/credits/ledger.ts). Never declare a statement that
 * updates a row per copy: in one statement Postgres updates a row once, and the other copies' changes
 * are lost.
 * @param sql the statement: exactly one `VALUES (...)`, every `$n` inside it, numbered `$1..$n`
 * @param merged where `sql` alone is cheaper in a form that is not additive: the additive form
 *               (same `VALUES` row, parameters only there), used in its place for two copies or more
 * @returns `sql`, unchanged
 * @throws Error when a text does not have that shape (a programming error, at module load)
 */
export function rowAdditive(sql: string, merged?: string): string {
  const shape = rowShapeOf(merged ?? sql);
  if (merged !== undefined && !sql.includes(shape.row)) throw new Error(`[store] the merged form of a statement needs its VALUES row: ${sql.slice(0, 80)}`);
  if (!shapes.has(sql)) shapes.set(sql, { ...shape, id: shapes.size });
  return sql;
}

/** The split of an additive text around its one `VALUES (...)` row. @throws Error when it has another shape */
function rowShapeOf(sql: string): Omit<RowShape, 'id'> {
  const at = [...sql.matchAll(/\bvalues\s*\(/gi)];
  if (at.length !== 1) throw new Error(`[store] a row-additive statement needs exactly one VALUES (...): ${sql.slice(0, 80)}`);
  const open = at[0]!.index! + at[0]![0].length - 1;
  const close = matchingParen(sql, open);
  if (close < 0) throw new Error(`[store] unbalanced VALUES row: ${sql.slice(0, 80)}`);
  const row = sql.slice(open, close + 1);
  const head = sql.slice(0, open);
  const tail = sql.slice(close + 1);
  if (/\$\d/.test(head) || /\$\d/.test(tail)) throw new Error(`[store] a row-additive statement takes parameters only in its VALUES row: ${sql.slice(0, 80)}`);
  const numbers = [...row.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
  return { head, row, tail, arity: numbers.length === 0 ? 0 : Math.max(...numbers) };
}

/** Whether `sql` was declared row-additive (`rowAdditive`). */
export function isRowAdditive(sql: string): boolean {
  return shapes.has(sql);
}

/** A declared statement's number and parameter count, or undefined when `sql` was not declared. */
export function rowShape(sql: string): { id: number; arity: number } | undefined {
  return shapes.get(sql);
}

/**
 * Copies of one row-additive statement as one statement with a row per copy.
 * @param copies statements with the same declared text
 * @throws Error when the text was not declared, or a copy's parameter count differs from the text's
 */
export function mergeRows(copies: readonly Statement[]): Statement {
  if (copies.length === 1) return copies[0]!;
  const shape = shapes.get(copies[0]!.sql);
  if (!shape) throw new Error('[store] mergeRows: not a row-additive statement');
  const rows: string[] = [];
  const params: unknown[] = [];
  for (const c of copies) {
    if (c.sql !== copies[0]!.sql || c.params.length !== shape.arity) throw new Error('[store] mergeRows: copies differ');
    const offset = params.length;
    rows.push(offset === 0 ? shape.row : shape.row.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`));
    params.push(...c.params);
  }
  return { sql: `${shape.head}${rows.join(', ')}${shape.tail}`, params };
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
