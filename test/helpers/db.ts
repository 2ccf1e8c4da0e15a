/**
 * Test databases: `openTestDatabase(kind)` gives a fresh, isolated, migrated database of either driver,
 * and `forEachDatabase` runs one suite against both. Postgres: a uniquely named database created on the
 * local server (dropped on cleanup). PGlite: a temporary data directory seeded from a cached template
 * (initdb runs once per machine, not per test: it takes seconds and ~1 GB).
 *
 * Both kinds start from an already migrated copy by default (`migratedPgliteTemplate`, a Postgres
 * template database `trawl_tpl_<hash>`), keyed by a hash of every migration's name and SQL, so a
 * change to a migration builds a new one. The migrator still runs on open and finds them all
 * recorded. Tests of the migrator itself pass `{ migrated: false }` (or use `createTestDatabaseConfig`
 * with `testOpenOptions`), which migrate an empty database as a first start does.
 */
import { describe } from 'bun:test';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { extractTemplate } from '../../core/db/extract-template.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { loadConfig, type ResolvedConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { openDatabase, type Database, type DatabaseKind, type OpenDatabaseOptions } from '../../core/db/client.ts';
import { createPgliteTemplate, openPglite } from '../../core/db/pglite.ts';
import { migrate, type SqlSession } from '../../core/db/migrate.ts';
import { migrations as allMigrations } from '../../core/db/migrations/index.ts';

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

/** A short hash of every migration (name and SQL) and the PGlite version: names the migrated templates. */
function migrationsHash(): string {
  const pkg = join(dirname(Bun.resolveSync('@electric-sql/pglite', import.meta.dir)), '..', 'package.json');
  const version = JSON.parse(readFileSync(pkg, 'utf8')).version as string;
  const h = new Bun.CryptoHasher('sha256');
  h.update(version);
  for (const m of [...allMigrations].sort((a, b) => a.name.localeCompare(b.name))) h.update(`\0${m.name}\0${m.sql}`);
  return h.digest('hex').slice(0, 16);
}

let migratedTemplate: Promise<Blob> | undefined;

/**
 * A PGlite data directory (uncompressed tarball) with every migration applied, cached in tmpdir by
 * `migrationsHash()`: opening a test database from it skips initdb and the migrations (measured
 * ~1.0 CPU-s per open against ~1.6 s from the plain template).
 */
export function migratedPgliteTemplate(): Promise<Blob> {
  migratedTemplate ??= (async () => {
    const file = join(tmpdir(), `trawl-pglite-migrated-${migrationsHash()}.tar`);
    if (existsSync(file)) return new Blob([await Bun.file(file).arrayBuffer()]);
    const { pg, close } = await openPglite(undefined);
    let blob: Blob;
    try {
      const session: SqlSession = {
        transaction: (fn) =>
          pg.transaction((tx) => fn({ query: async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows, exec: async (text) => void (await tx.exec(text)) })),
      };
      await migrate(session, allMigrations, silentLogger);
      blob = await pg.dumpDataDir('none');
    } finally {
      await close();
    }
    const partial = `${file}.${process.pid}.${Date.now()}`;
    await writeFile(partial, new Uint8Array(await blob.arrayBuffer()));
    await rename(partial, file);
    return blob;
  })();
  return migratedTemplate;
}

/**
 * Seeds `<dataDir>/pg` (where Trawl keeps its embedded database) with the migrated template, so a
 * Trawl process started on `dataDir` (a CLI command, `trawl serve`) opens an existing, up-to-date
 * database instead of running initdb and every migration.
 */
export async function seedMigratedDataDir(dataDir: string): Promise<void> {
  await extractTemplate(await migratedPgliteTemplate(), join(dataDir, 'pg'));
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The name of a Postgres database with every migration applied, to copy with `CREATE DATABASE ...
 * TEMPLATE` (~0.5 s instead of ~2 s of migrations on a loaded machine). Built once per machine and
 * migration set (`trawl_tpl_<hash>`); kept, since other test runs may be copying it.
 */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `trawl_tpl_${migrationsHash()}`;
    const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
    try {
      const [found] = await admin`select 1 from pg_database where datname = ${name}`;
      if (found) return name;
      // Built under a private name, then renamed and marked a template: a concurrent run never sees half of it.
      const building = `trawl_tpb_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
      await admin.unsafe(`CREATE DATABASE ${building}`);
      const url = new URL(TEST_POSTGRES_URL);
      url.pathname = `/${building}`;
      try {
        const db = await openDatabase(loadConfig({ DATABASE_URL: url.toString(), TRAWL_LOG_LEVEL: 'silent' }), silentLogger);
        await db.close();
        // The closed connections' backends may still be exiting for a moment: retry the rename.
        for (let i = 0; ; i++) {
          try {
            await admin.unsafe(`ALTER DATABASE ${building} RENAME TO ${name}`);
            break;
          } catch (e) {
            if (i >= 50 || !/being accessed by other users/.test(String((e as Error).message))) throw e;
            await Bun.sleep(100);
          }
        }
        await admin.unsafe(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
      } catch (e) {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        const [other] = await admin`select 1 from pg_database where datname = ${name}`;
        if (!other) throw e; // else another run built it first
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  postgresTemplate.catch(() => (postgresTemplate = undefined));
  return postgresTemplate;
}

/**
 * Creates a database of `kind` and a config naming it: empty (no migrations yet) by default; with
 * `migrated`, a Postgres copy of the migrated template database (PGlite: seed the data dir with
 * `seedMigratedDataDir`, or open with `migratedPgliteTemplate`).
 */
export async function createTestDatabaseConfig(kind: DatabaseKind, opts: { migrated?: boolean } = {}): Promise<TestDatabaseConfig> {
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
    await admin.unsafe(opts.migrated ? `CREATE DATABASE ${name} TEMPLATE ${await migratedPostgresTemplate()}` : `CREATE DATABASE ${name}`);
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

/**
 * A fresh, migrated database of `kind`. Call `close()` when done.
 * @param opts.migrated start from the migrated templates (default true); false runs every migration
 *   on an empty database, as a first start does (tests of the migrator)
 */
export async function openTestDatabase(kind: DatabaseKind, opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = opts.migrated ?? true;
  const created = await createTestDatabaseConfig(kind, { migrated });
  const options = migrated && kind === 'pglite' ? { pgliteTemplate: await migratedPgliteTemplate() } : await testOpenOptions(kind);
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
