/**
 * Storage contract: the same suite against PGlite and Postgres. Migrations, every table through
 * drizzle, JSON and text round trips, constraints, raw query shapes, transactions, concurrency.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { eq, is, sql } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../core/log.ts';
import { openDatabase } from '../../core/db/client.ts';
import { migrations } from '../../core/db/migrations/index.ts';
import * as schema from '../../core/db/schema/index.ts';
import { apiKeys, documents, jobs, queueJobs, teams } from '../../core/db/schema/index.ts';
import { createTestDatabaseConfig, forEachDatabase, migratedPgliteTemplate, openTestDatabase, rejectionOf, testOpenOptions, type TestDatabase } from '../helpers/db.ts';

const tables = Object.values(schema).filter((v) => is(v, PgTable)) as unknown as PgTable[];

async function newTeam(t: TestDatabase, id = crypto.randomUUID()) {
  await t.db.orm.insert(teams).values({ id, name: `team ${id}`, credits: 5_000_000_000, concurrency: 4 });
  return id;
}

forEachDatabase((kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind, { migrated: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('migrations are recorded and every schema table exists', async () => {
    const applied = await t.db.query<{ name: string; applied_at: Date }>('select name, applied_at from trawl_migrations order by name');
    expect(applied.map((r) => r.name)).toEqual(migrations.map((m) => m.name).sort());
    expect(applied[0].applied_at).toBeInstanceOf(Date);
    expect(tables.length).toBeGreaterThanOrEqual(5);
  });

  test('schema files and migrations agree on columns and nullability', async () => {
    for (const table of tables) {
      const cfg = getTableConfig(table);
      // Columns the database generates (e.g. tsvector) may stay out of the drizzle schema.
      const cols = await t.db.query<{ column_name: string; is_nullable: string }>(
        `select column_name, is_nullable from information_schema.columns
         where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER'`,
        [cfg.name],
      );
      const db = Object.fromEntries(cols.map((c) => [c.column_name, c.is_nullable === 'NO']));
      const code = Object.fromEntries(cfg.columns.map((c) => [c.name, c.notNull]));
      expect({ table: cfg.name, columns: db }).toEqual({ table: cfg.name, columns: code });
    }
  });

  test('teams and api keys round trip through drizzle; key_hash is unique', async () => {
    const teamId = await newTeam(t);
    const [team] = await t.db.orm.select().from(teams).where(eq(teams.id, teamId));
    expect(team.credits).toBe(5_000_000_000);
    expect(team.zdrEnabled).toBe(false);
    expect(team.createdAt).toBeInstanceOf(Date);

    const hash = new Bun.CryptoHasher('sha256').update(`key-${teamId}`).digest('hex');
    const id = crypto.randomUUID();
    await t.db.orm.insert(apiKeys).values({ id, teamId, name: 'ci', keyHash: hash, keyPrefix: 'fc-abcde', allowedFormats: ['markdown'] });
    const [key] = await t.db.orm.select().from(apiKeys).where(eq(apiKeys.keyHash, hash));
    expect(key).toMatchObject({ id, teamId, keyPrefix: 'fc-abcde', allowedFormats: ['markdown'], allowedEndpoints: [], isAdmin: false, revokedAt: null });

    let caught: unknown;
    try {
      await t.db.orm.insert(apiKeys).values({ id: crypto.randomUUID(), teamId, keyHash: hash, keyPrefix: 'fc-other' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeDefined();
    const code = (caught as { code?: string; cause?: { code?: string } }).cause?.code ?? (caught as { code?: string }).code;
    expect(code).toBe('23505');
  });

  test('jobs keep JSON options, results and errors exactly', async () => {
    const options = { formats: ['markdown', { type: 'json', schema: { a: [1, 2.5, null, true] } }], note: 'ünïcødé "q" \\ \n 🚀', empty: {} };
    const id = Bun.randomUUIDv7();
    await t.db.orm.insert(jobs).values({ id, teamId: 't', kind: 'crawl', status: 'scraping', url: 'https://a.test/', options });
    await t.db.orm
      .update(jobs)
      .set({ status: 'failed', error: { name: 'TrawlError', code: 'SCRAPE_TIMEOUT', message: 'm', status: 408, retryable: true }, result: ['x', 1], creditsUsed: 3 })
      .where(eq(jobs.id, id));
    const [row] = await t.db.orm.select().from(jobs).where(eq(jobs.id, id));
    expect(row.options).toEqual(options);
    expect(row.result).toEqual(['x', 1]);
    expect(row.error?.code).toBe('SCRAPE_TIMEOUT');
    expect(row.creditsUsed).toBe(3);
    // Stored as real JSON objects, not JSON strings.
    const [raw] = await t.db.query('select jsonb_typeof(options) as kind, options->>$2 as note from jobs where id = $1', [id, 'note']);
    expect(raw).toEqual({ kind: 'object', note: options.note });
  });

  test('documents return the body byte for byte, listed by (job_id, created_at)', async () => {
    const jobId = Bun.randomUUIDv7();
    const bodies = ['{"markdown":"# Ünï \\u2028 🚀","a":1.0}', '{"b":"\\ud83d\\ude80 \\"x\\""}', '{ "spacing" :  [ ] }'];
    for (const body of bodies) {
      await t.db.orm.insert(documents).values({
        id: Bun.randomUUIDv7(),
        jobId,
        teamId: 't',
        url: 'https://a.test/p',
        sourceUrl: 'https://a.test/p',
        statusCode: 200,
        body,
        sizeBytes: Buffer.byteLength(body),
      });
    }
    const rows = await t.db.orm.select().from(documents).where(eq(documents.jobId, jobId)).orderBy(documents.createdAt, documents.id);
    expect(rows.map((r) => r.body)).toEqual(bodies);
    expect(rows.map((r) => r.sizeBytes)).toEqual(bodies.map((b) => Buffer.byteLength(b)));
  });

  test('queue_jobs round trip with defaults', async () => {
    const id = Bun.randomUUIDv7();
    await t.db.orm.insert(queueJobs).values({ id, queue: 'q', name: 'n', data: { url: 'x', n: [1] } });
    const [row] = await t.db.orm.select().from(queueJobs).where(eq(queueJobs.id, id));
    expect(row).toMatchObject({ status: 'waiting', priority: 0, attempts: 0, maxAttempts: 1, data: { url: 'x', n: [1] }, result: null });
    expect(row.runAt).toBeInstanceOf(Date);
  });

  test('raw queries give the same shapes on both drivers', async () => {
    const when = new Date('2026-01-02T03:04:05.678Z');
    const [row] = await t.db.query(
      `select count(*) as n, $1::timestamptz as at, $2::jsonb as obj, 9007199254740993::int8 as big, $3::text as s, $4::int as i, null as z`,
      [when, { a: [1, 'b'] }, 'text', 7],
    );
    expect(row).toEqual({ n: 1, at: when, obj: { a: [1, 'b'] }, big: 9007199254740993n, s: 'text', i: 7, z: null });
    const [json] = await t.db.query(`select $1::jsonb as v`, [JSON.stringify([1, { x: 'y' }])]);
    expect(json.v).toEqual([1, { x: 'y' }]);
    const [arr] = await t.db.query(`select $1::text[] as v, $2::text as u`, [['a', 'b'], undefined]);
    expect(arr).toEqual({ v: ['a', 'b'], u: null });
  });

  test('transactions commit, and roll back when the callback throws', async () => {
    const a = await newTeam(t);
    await t.db.transaction(async (tx) => {
      await tx.query('update teams set credits = credits - 5 where id = $1', [a]);
    });
    const failed = t.db.transaction(async (tx) => {
      await tx.query('update teams set credits = credits - 1000 where id = $1', [a]);
      throw new Error('boom');
    });
    expect((await rejectionOf(failed)).message).toBe('boom');
    const [row] = await t.db.query<{ credits: number }>('select credits from teams where id = $1', [a]);
    expect(row.credits).toBe(5_000_000_000 - 5);
  });

  test('50 parallel callers (raw, drizzle, transactions) all succeed', async () => {
    const teamId = await newTeam(t);
    const work = Array.from({ length: 50 }, (_, i) => {
      if (i % 3 === 0) return t.db.query<{ v: number }>('select $1::int * 2 as v', [i]).then((r) => r[0].v === i * 2);
      if (i % 3 === 1)
        return t.db.orm
          .insert(queueJobs)
          .values({ id: `${teamId}-${i}`, queue: teamId, name: 'n', data: { i } })
          .then(() => true);
      return t.db.transaction(async (tx) => {
        await tx.query('update teams set credits = credits - 1 where id = $1', [teamId]);
        return true;
      });
    });
    expect(await Promise.all(work)).toEqual(Array(50).fill(true));
    const [n] = await t.db.orm.select({ n: sql<number>`count(*)::int` }).from(queueJobs).where(eq(queueJobs.queue, teamId));
    expect(n.n).toBe(17);
    const [team] = await t.db.query<{ credits: number }>('select credits from teams where id = $1', [teamId]);
    expect(team.credits).toBe(5_000_000_000 - 16);
  });

  test('ping answers, then reports false once closed', async () => {
    const fresh = await openTestDatabase(kind);
    expect(await fresh.db.ping()).toBe(true);
    await fresh.db.close();
    expect(await fresh.db.ping()).toBe(false);
    await fresh.db.close(); // idempotent
    await fresh.cleanup();
  });

  test('reopening is a no-op for migrations', async () => {
    const fresh = await openTestDatabase(kind, { migrated: false });
    const before = await fresh.db.query('select name, applied_at from trawl_migrations order by name');
    await fresh.db.orm.insert(teams).values({ id: 'kept', name: 'kept', credits: 1, concurrency: 1 });
    await fresh.db.close();
    const again = await fresh.reopen();
    try {
      expect(await again.query('select name, applied_at from trawl_migrations order by name')).toEqual(before);
      expect((await again.query('select id from teams')).map((r) => r.id)).toEqual(['kept']);
    } finally {
      await again.close();
      await fresh.cleanup();
    }
  });

  test('a failing migration is rolled back, named, and not recorded', async () => {
    const created = await createTestDatabaseConfig(kind);
    const bad = [...migrations, { name: '9999_bad', sql: 'CREATE TABLE should_vanish (a int); SELECT no_such_column FROM teams;' }];
    try {
      await expect(openDatabase(created.config, silentLogger, { ...(await testOpenOptions(kind)), migrations: bad })).rejects.toThrow(
        /Migration 9999_bad failed/,
      );
      const db = await openDatabase(created.config, silentLogger, await testOpenOptions(kind));
      try {
        expect(await db.query(`select to_regclass('should_vanish') as t`)).toEqual([{ t: null }]);
        expect((await db.query('select name from trawl_migrations')).map((r) => r.name)).toEqual(migrations.map((m) => m.name));
      } finally {
        await db.close();
      }
    } finally {
      await created.cleanup();
    }
  });

  if (kind === 'pglite') {
    test('the embedded database directory is locked against a second opener', async () => {
      const created = await createTestDatabaseConfig(kind);
      const options = { pgliteTemplate: await migratedPgliteTemplate() }; // about the lock, not the migrations
      const lock = join(created.config.dataDir, 'pg.lock');
      try {
        const db = await openDatabase(created.config, silentLogger, options);
        await expect(openDatabase(created.config, silentLogger, options)).rejects.toThrow(/already open in this process/);
        await db.close();
        expect(existsSync(lock)).toBe(false);
        // A live process on this host holds it: refused, naming the pid.
        const other = Bun.spawn(['sleep', '30']);
        writeFileSync(lock, JSON.stringify({ pid: other.pid, host: hostname() }));
        await expect(openDatabase(created.config, silentLogger, options)).rejects.toThrow(`in use by process ${other.pid}`);
        other.kill();
        await other.exited;
        // Its owner is gone: the stale lock is taken over.
        const again = await openDatabase(created.config, silentLogger, options);
        expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
        await again.close();
      } finally {
        await created.cleanup();
      }
    });
  }

  if (kind === 'postgres') {
    test('processes opening the same new database at once apply each migration once', async () => {
      const created = await createTestDatabaseConfig(kind);
      try {
        const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase(created.config, silentLogger)));
        const rows = await dbs[0].query('select name from trawl_migrations');
        expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
        await Promise.all(dbs.map((d) => d.close()));
      } finally {
        await created.cleanup();
      }
    });
  }
});
