/**
 * The migrator. Applies the SQL files of core/db/migrations that a database lacks, in name order, each
 * in its own transaction, and records them in `trawl_migrations(name, applied_at)`. Every transaction
 * first takes a transaction-level Postgres advisory lock, so processes starting at once against the
 * same Postgres database apply each migration exactly once (the others wait, then see it recorded).
 */
import type { Logger } from '../log.ts';
import type { Migration } from './migrations/index.ts';

/** One transaction of a driver: run multi-statement SQL, or one parameterized query. */
export interface SqlTransaction {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** What the migrator needs from a driver: a way to run a function inside a transaction. */
export interface SqlSession {
  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T>;
}

/** Advisory lock key shared by every Trawl process ('trwl' as a 32-bit number). */
export const MIGRATION_LOCK_KEY = 0x7472776c;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS trawl_migrations (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

async function lockedPrelude(tx: SqlTransaction): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
  await tx.exec(CREATE_TABLE);
}

/**
 * Applies missing migrations.
 * @param session    driver transaction runner
 * @param migrations the list, any order (sorted by name here); names must be unique
 * @returns names applied by this call (empty when the database was up to date)
 * @throws the database error of a failing migration, its name prefixed; that migration is rolled back
 */
export async function migrate(session: SqlSession, migrations: readonly Migration[], log: Logger): Promise<string[]> {
  const ordered = [...migrations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = new Set(ordered.map((m) => m.name));
  if (names.size !== ordered.length) throw new Error('Duplicate migration names');

  const applied = await session.transaction(async (tx) => {
    await lockedPrelude(tx);
    const rows = await tx.query<{ name: string }>('SELECT name FROM trawl_migrations');
    return new Set(rows.map((r) => r.name));
  });

  const done: string[] = [];
  for (const m of ordered) {
    if (applied.has(m.name)) continue;
    const ran = await session
      .transaction(async (tx) => {
        await lockedPrelude(tx);
        const seen = await tx.query('SELECT 1 FROM trawl_migrations WHERE name = $1', [m.name]);
        if (seen.length > 0) return false; // another process applied it while we waited for the lock
        await tx.exec(m.sql);
        await tx.query('INSERT INTO trawl_migrations (name) VALUES ($1)', [m.name]);
        return true;
      })
      .catch((e: unknown) => {
        throw new Error(`Migration ${m.name} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      });
    if (ran) {
      done.push(m.name);
      log.info({ migration: m.name }, 'migration applied');
    }
  }
  return done;
}
