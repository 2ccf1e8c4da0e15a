/**
 * Test databases: `openTestDatabase(kind)` gives a fresh, isolated, migrated database of either driver,
 * and `forEachDatabase` runs one suite against both. Postgres: a uniquely named database created on the
 * local server (dropped on cleanup). PGlite: a temporary data directory seeded from a cached template
 * (initdb runs once per machine, not per test: it takes seconds and ~1 GB).
 */
import { describe } from 'bun:test';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { loadConfig, type ResolvedConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { openDatabase, type Database, type DatabaseKind, type OpenDatabaseOptions } from '../../core/db/client.ts';
import { createPgliteTemplate } from '../../core/db/pglite.ts';

/** The local test server (trust auth); test databases are created next to `test`. */
export const TEST_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DB_KINDS = ['pglite', 'postgres'] as const satisfies readonly DatabaseKind[];

export interface TestDatabaseConfig {
  kind: DatabaseKind;
  /** Config pointing at the fresh database (`databaseUrl` or `dataDir`). */
  config: ResolvedConfig;
  /** Drops the database / removes the directory. Close every handle first. */
  cleanup(): Promise<void>;
}

export interface TestDatabase extends TestDatabaseConfig {
  db: Database;
  /** Opens another handle on the same database (PGlite: close `db` first, it is single-process). */
  reopen(): Promise<Database>;
  /** Closes `db` and cleans up. */
  close(): Promise<void>;
}

let template: Promise<Blob> | undefined;

/** The PGlite template, cached in tmpdir per PGlite version so initdb runs once per machine. */
export function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const pkg = join(dirname(Bun.resolveSync('@electric-sql/pglite', import.meta.dir)), '..', 'package.json');
    const version = JSON.parse(readFileSync(pkg, 'utf8')).version as string;
    const file = join(tmpdir(), `trawl-pglite-template-${version}.tar`);
    if (existsSync(file)) return new Blob([await Bun.file(file).arrayBuffer()]);
    const blob = await createPgliteTemplate();
    const partial = `${file}.${process.pid}.${Date.now()}`;
    await writeFile(partial, new Uint8Array(await blob.arrayBuffer()));
    await rename(partial, file);
    return blob;
  })();
  return template;
}

/** Creates an empty database of `kind` (no migrations yet) and a config naming it. */
export async function createTestDatabaseConfig(kind: DatabaseKind): Promise<TestDatabaseConfig> {
  const dataDir = await mkdtemp(join(tmpdir(), 'trawl-test-'));
  if (kind === 'pglite') {
    return {
      kind,
      config: loadConfig({ TRAWL_DATA_DIR: dataDir, TRAWL_LOG_LEVEL: 'silent' }),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `trawl_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    config: loadConfig({ DATABASE_URL: url.toString(), TRAWL_DATA_DIR: dataDir, TRAWL_LOG_LEVEL: 'silent' }),
    async cleanup() {
      const a = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await a.end();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Opening options tests use: the PGlite template. */
export async function testOpenOptions(kind: DatabaseKind): Promise<OpenDatabaseOptions> {
  return kind === 'pglite' ? { pgliteTemplate: await pgliteTemplate() } : {};
}

/** A fresh, migrated database of `kind`. Call `close()` when done. */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const created = await createTestDatabaseConfig(kind);
  const options = await testOpenOptions(kind);
  const open = () => openDatabase(created.config, silentLogger, options);
  let db: Database;
  try {
    db = await open();
  } catch (e) {
    await created.cleanup();
    throw e;
  }
  return {
    ...created,
    db,
    reopen: open,
    async close() {
      await db.close();
      await created.cleanup();
    },
  };
}

/**
 * The error `p` rejects with; throws when it resolves. Use it instead of `await expect(p).rejects`
 * when `p` settles through the embedded database worker: bun:test's matcher waits in a nested event
 * loop that misses Worker replies when the test got there from an earlier Worker reply, and hangs
 * (oven-sh/bun#37189, #43819; Bun 1.4.5).
 */
export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('Expected a rejection, but the promise resolved');
}

/** Runs `suite` once per database kind, inside `describe(<kind>)`. */
export function forEachDatabase(suite: (kind: DatabaseKind) => void): void {
  for (const kind of DB_KINDS) describe(kind, () => suite(kind));
}
