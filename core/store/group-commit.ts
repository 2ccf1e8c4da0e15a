/**
 * Group commit (issue 22 part 4): the writes of scrapes that finish while the database is busy with
 * an earlier group go together, as one statement, once it is done. Each cached scrape stores its hit
 * as a document with a scrape record, an activity row and a ledger entry: one statement each, whose
 * cost is mostly the statement (parse, plan, commit, the round trip to the embedded database's
 * thread), not its rows. Under load, K hits cost one statement of K rows per table instead of K.
 *
 * A group takes only writes declared row-additive (core/store/sql-merge.ts `rowAdditive`): copies of
 * one statement become one statement with a row per copy, and the different statements are parts of
 * one `WITH` (core/store/sql-merge.ts `combine`). A group is all or nothing: when its statement
 * fails, every member is told so and runs its writes on its own (write-bundle.ts), so one member's
 * failure never fails another's.
 *
 * One group runs at a time per database; members that arrive meanwhile wait for it and form the
 * next group (at most `MAX_GROUP` members). A member arriving at an idle database runs at once,
 * alone: no waiting is added when there is no load.
 */
import type { Queryable } from '../db/client.ts';
import { combine, mergeRows, rowShape, type Statement } from './sql-merge.ts';

/** Most members of one group (bounds the statement's size: ~6 KB of document per cached scrape). */
export const MAX_GROUP = 64;

/** A group's statement failed: nothing of it was written. */
export class GroupFailed extends Error {
  /**
   * @param members how many members the group had (1: the member's writes already ran as one
   *                statement, alone)
   */
  constructor(readonly members: number, cause: unknown) {
    super(`[store] a group commit of ${members} failed`, { cause });
  }
}

interface Member {
  writes: Statement[];
  resolve(): void;
  reject(error: unknown): void;
}

/** The group committer of one database. */
export class GroupCommit {
  private waiting: Member[] = [];
  private busy = false;

  constructor(private readonly db: Queryable) {}

  /**
   * Commits `writes` (row-additive statements) in the next group.
   * @returns resolves once the group committed; rejects with `GroupFailed` (nothing written) when
   *          the group's statement failed or could not be made
   */
  commit(writes: Statement[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ writes, resolve, reject });
      if (!this.busy) this.next();
    });
  }

  private next(): void {
    const group = this.waiting.splice(0, MAX_GROUP);
    if (group.length === 0) {
      this.busy = false;
      return;
    }
    this.busy = true;
    let statement: Statement | undefined;
    try {
      statement = groupStatement(group.map((m) => m.writes));
    } catch (error) {
      for (const m of group) m.reject(new GroupFailed(group.length, error));
      this.next();
      return;
    }
    this.db.query(statement.sql, statement.params).then(
      () => group.forEach((m) => m.resolve()),
      (error) => group.forEach((m) => m.reject(new GroupFailed(group.length, error))),
    ).finally(() => this.next());
  }
}

/**
 * The statement of a group: per distinct statement text (first-seen order) its copies merged into
 * one, then those as parts of one `WITH`; a single write is sent as it is.
 * @throws Error when the writes cannot be combined
 */
export function groupStatement(members: readonly Statement[][]): Statement {
  const byText = new Map<string, Statement[]>();
  for (const writes of members) for (const w of writes) {
    const same = byText.get(w.sql);
    if (same) same.push(w);
    else byText.set(w.sql, [w]);
  }
  const parts = [...byText.values()];
  if (parts.length === 1 && parts[0]!.length === 1) return parts[0]![0]!;
  // The text depends only on which declared statements come how often, in which order: made once.
  let signature: string | undefined = '';
  for (const copies of parts) {
    const shape = rowShape(copies[0]!.sql);
    if (!shape || copies.some((c) => c.params.length !== shape.arity)) {
      signature = undefined;
      break;
    }
    signature += `${shape.id}x${copies.length},`;
  }
  let sql = signature === undefined ? undefined : groupTexts.get(signature);
  if (sql === undefined) {
    const merged = parts.map(mergeRows);
    const one = merged.length === 1 ? merged[0] : combine(merged);
    if (!one) throw new Error('[store] the writes of a group could not be combined into one statement');
    sql = one.sql;
    if (signature !== undefined && groupTexts.size < MAX_GROUP_TEXTS) groupTexts.set(signature, sql);
  }
  return { sql, params: parts.flatMap((copies) => copies.flatMap((c) => c.params)) };
}

/** Group statement texts by signature (which declared statements, how many copies of each). */
const groupTexts = new Map<string, string>();
/** Most texts kept (a few shapes of group times `MAX_GROUP` sizes). */
const MAX_GROUP_TEXTS = 1024;

const byDatabase = new WeakMap<object, GroupCommit>();

/** The group committer of `db` (one per database object). */
export function groupCommitOf(db: Queryable): GroupCommit {
  let g = byDatabase.get(db);
  if (!g) byDatabase.set(db, (g = new GroupCommit(db)));
  return g;
}
