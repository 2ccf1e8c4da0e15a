/**
 * The database of a Trawl process. With `DATABASE_URL` it is an external PostgreSQL (postgres.js);
 * without, an embedded PGlite stored in `<dataDir>/pg`. Both sides give the same `Database`: a drizzle
 * handle typed with the schema, raw SQL with normalized rows, and migrations applied on open.
 * PGlite is a single connection that queues statements internally, so many async callers can share it;
 * by default it runs in a worker thread (pglite-remote.ts), keeping its CPU off the main thread.
 */
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Sql } from 'postgres';
import type { ResolvedConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import * as schema from './schema/index.ts';
import { migrations as allMigrations, type Migration } from './migrations/index.ts';
import { migrate, type SqlSession, type SqlTransaction } from './migrate.ts';
import { openPglite, pgliteDataDir } from './pglite.ts';
import { openRemotePglite, type PgliteHandle, type PgliteRunner } from './pglite-remote.ts';
import { createPostgresClient, normalizeRows } from './postgres.ts';
import { timedQuery } from '../metrics/index.ts';
import { startupMark } from '../startup-trace.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** drizzle, typed with every table of core/db/schema (same API on both drivers). */
export type Orm = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw SQL runner, also what a `transaction` callback receives. */
export interface Queryable {
  /**
   * Runs one statement with `$1..$n` parameters and returns its rows.
   * Params: string, number, boolean, null/undefined (NULL), bigint, Uint8Array, arrays, Date (sent as
   * ISO text), plain objects (sent as JSON text, for json/jsonb). Rows: int8 -> number, timestamptz ->
   * Date, json/jsonb -> parsed value, on both drivers.
   */
  query<T = Record<string, any>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  readonly orm: Orm;
  /**
   * Runs `fn` in one transaction (committed when it resolves, rolled back when it throws). Use only
   * `tx` inside: on PGlite the outer handle waits for the transaction to end, so using it deadlocks.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** True when a trivial query answers within 5 s. */
  ping(): Promise<boolean>;
  /** Closes connections (idempotent). */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PGlite only: pre-initialised data directory used when `<dataDir>/pg` is empty (see core/db/pglite.ts). */
  pgliteTemplate?: Blob;
  /**
   * PGlite only: where the embedded database runs. 'worker' (default): its own thread, so its CPU
   * is on another core than HTTP and the pipeline; 'inline': the calling thread.
   */
  pgliteThread?: 'worker' | 'inline';
  /** Migrations to apply (default: all of core/db/migrations). */
  migrations?: readonly Migration[];
  /**
   * PGlite only: the embedded database already being opened (`openEmbeddedEarly`), used instead of
   * opening `<dataDir>/pg` here; its failure (lock held, unreadable directory) is thrown by
   * `openDatabase` as if it had opened it.
   */
  pgliteOpening?: Promise<PgliteHandle>;
}

const PING_TIMEOUT_MS = 5_000;

function toParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)) {
    return JSON.stringify(value);
  }
  return value;
}

const toParams = (params: unknown[] = []) => params.map(toParam);

function pgliteQueryable(pg: Pick<PgliteRunner, 'query'>): Queryable {
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await pg.query<T>(text, toParams(params))).rows;
    },
  };
}

function postgresQueryable(sql: Sql): Queryable {
  return {
    async query<T>(text: string, params?: unknown[]) {
      const result = await sql.unsafe(text, toParams(params) as never[]);
      return normalizeRows<T>(result as unknown as Record<string, unknown>[], result.columns ?? []);
    },
  };
}

async function withTimeout(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function build(kind: DatabaseKind, orm: Orm, raw: Queryable, session: SqlSession, end: () => Promise<void>): Database {
  let closing: Promise<void> | undefined;
  return {
    kind,
    orm,
    query: timedQuery(raw.query),
    transaction: (fn) => session.transaction((tx) => fn(tx)),
    ping: () => withTimeout(raw.query('SELECT 1'), PING_TIMEOUT_MS),
    close: () => (closing ??= end()),
  };
}

interface Opened {
  db: Database;
  session: SqlSession;
}

async function openPgliteDatabase(config: ResolvedConfig, options: OpenDatabaseOptions): Promise<Opened> {
  const dir = pgliteDataDir(config.dataDir);
  const template = options.pgliteTemplate;
  const { pg, close }: PgliteHandle = options.pgliteOpening
    ? await options.pgliteOpening
    : options.pgliteThread === 'inline'
      ? await openPglite(dir, { template })
      : await openRemotePglite(dir, { template });
  const session: SqlSession = {
    transaction: (fn) =>
      pg.transaction((tx) => {
        const t: SqlTransaction = { query: pgliteQueryable(tx).query, exec: async (text) => void (await tx.exec(text)) };
        return fn(t);
      }),
  };
  // The worker client answers the calls drizzle's PGlite driver makes (query with parsers, transaction).
  const orm = drizzlePglite({ client: pg as PGlite, schema }) as unknown as Orm;
  return { db: build('pglite', orm, pgliteQueryable(pg), session, close), session };
}

function openPostgresDatabase(url: string, log: Logger): Opened {
  const sql = createPostgresClient(url, log);
  const orm = drizzlePostgres({ client: sql, schema }) as unknown as Orm; // also sets sql's type parsers
  const session: SqlSession = {
    transaction: (fn) =>
      sql.begin((tx) => {
        const t: SqlTransaction = {
          query: postgresQueryable(tx as unknown as Sql).query,
          exec: async (text) => void (await tx.unsafe(text)),
        };
        return fn(t);
      }) as Promise<never>,
  };
  return { db: build('postgres', orm, postgresQueryable(sql), session, () => sql.end({ timeout: 5 })), session };
}

/**
 * Opens the database named by the config and brings its schema up to date (core/db/migrate.ts).
 * @param config `databaseUrl` set: PostgreSQL 15+; unset: PGlite in `<dataDir>/pg`
 * @throws when the database cannot be reached or a migration fails (startup should fail loudly); the
 *         connection is closed before throwing
 */
export async function openDatabase(config: ResolvedConfig, log: Logger, options: OpenDatabaseOptions = {}): Promise<Database> {
  const started = performance.now();
  const { db, session } = config.databaseUrl
    ? openPostgresDatabase(config.databaseUrl, log)
    : await openPgliteDatabase(config, options);
  try {
    startupMark('db:opened');
    await migrate(session, options.migrations ?? allMigrations, log);
    startupMark('db:migrated');
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
  log.debug({ kind: db.kind, ms: Math.round(performance.now() - started) }, 'database open');
  return db;
}
