/**
 * The embedded database in a worker thread (core/db/pglite-remote.ts): the same values, errors and
 * transaction behaviour as PGlite in the calling thread, and a dead worker fails calls instead of
 * hanging them. The storage contract (test/contracts/db.test.ts) covers the rest on this path.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../core/db/client.ts';
import { openRemotePglite } from '../../core/db/pglite-remote.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { pgliteTemplate, rejectionOf } from '../helpers/db.ts';

const dirs: string[] = [];
const dbs: Record<'worker' | 'inline', Database> = {} as never;

beforeAll(async () => {
  for (const thread of ['worker', 'inline'] as const) {
    const dir = await mkdtemp(join(tmpdir(), 'trawl-pglite-worker-'));
    dirs.push(dir);
    dbs[thread] = await openDatabase(loadConfig({ TRAWL_DATA_DIR: dir, TRAWL_LOG_LEVEL: 'silent' }), silentLogger, {
      pgliteTemplate: await pgliteTemplate(),
      pgliteThread: thread,
    });
  }
});

afterAll(async () => {
  await Promise.all(Object.values(dbs).map((db) => db.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('values cross the thread unchanged', () => {
  test('params and rows are identical to in-thread PGlite', async () => {
    const sql = `select $1::int8 as small, $2::int8 as big, 9007199254740993::int8 as big_out, $3::bytea as bytes,
      $4::timestamptz as at, $5::jsonb as obj, $6::text[] as arr, $7::text as nul, now() > $4::timestamptz as later,
      '{"a":[1,"b",null]}'::json as j, 1.5::float8 as f, true as b`;
    const at = new Date('2026-01-02T03:04:05.678Z');
    const params = [42n, 9007199254740995n, new Uint8Array([0, 1, 255]), at, { k: ['v', 1] }, ['x', 'y'], undefined];
    const [worker] = await dbs.worker.query(sql, params);
    const [inline] = await dbs.inline.query(sql, params);
    expect(worker).toEqual(inline);
    expect(worker.small).toBe(42);
    expect(worker.big).toBe(9007199254740995n);
    expect(worker.bytes).toBeInstanceOf(Uint8Array);
    expect([...worker.bytes]).toEqual([0, 1, 255]);
    expect(worker.at).toBeInstanceOf(Date);
    expect(worker.obj).toEqual({ k: ['v', 1] });
    expect(worker.j).toEqual({ a: [1, 'b', null] });
  });
});

describe.each(['worker', 'inline'] as const)('%s', (thread) => {
  test('a Postgres error keeps its fields (code, detail, constraint, table)', async () => {
    const db = dbs[thread];
    const id = crypto.randomUUID();
    const insert = () => db.query('insert into teams (id, name, credits, concurrency) values ($1, $1, 1, 1)', [id]);
    await insert();
    const e = (await rejectionOf(insert())) as Error & Record<string, unknown>;
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe('duplicate key value violates unique constraint "teams_pkey"');
    expect(e).toMatchObject({ code: '23505', constraint: 'teams_pkey', table: 'teams', schema: 'public', severity: 'ERROR' });
    expect(e.detail).toBe(`Key (id)=(${id}) already exists.`);
    const syntax = (await rejectionOf(db.query('selec 1'))) as Error & { code?: string; position?: string };
    expect(syntax).toMatchObject({ code: '42601', position: '1' });
  });

  test('a transaction whose callback throws is rolled back; the error is the callback own', async () => {
    const db = dbs[thread];
    const id = crypto.randomUUID();
    await db.query('insert into teams (id, name, credits, concurrency) values ($1, $1, 100, 1)', [id]);
    class Boom extends Error {}
    const e = await rejectionOf(
      db.transaction(async (tx) => {
        await tx.query('update teams set credits = 0 where id = $1', [id]);
        expect(await tx.query('select credits from teams where id = $1', [id])).toEqual([{ credits: 0 }]);
        throw new Boom('boom');
      }),
    );
    expect(e).toBeInstanceOf(Boom);
    expect(await db.query('select credits from teams where id = $1', [id])).toEqual([{ credits: 100 }]);
    // A statement failing inside the transaction aborts it: later statements fail, nothing is kept.
    const failed = await rejectionOf(
      db.transaction(async (tx) => {
        await tx.query('update teams set credits = 1 where id = $1', [id]);
        await tx.query('select 1/0').catch(() => undefined);
        await tx.query('select 1');
      }),
    );
    expect((failed as { code?: string }).code).toBe('25P02'); // in_failed_sql_transaction
    expect(await db.query('select credits from teams where id = $1', [id])).toEqual([{ credits: 100 }]);
  });

  test('statements outside an open transaction wait for it to end, then see its writes', async () => {
    const db = dbs[thread];
    const id = crypto.randomUUID();
    await db.query('insert into teams (id, name, credits, concurrency) values ($1, $1, 100, 1)', [id]);
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('update teams set credits = 7 where id = $1', [id]);
      outside = db.query<{ credits: number }>('select credits from teams where id = $1', [id]).then((r) => {
        order.push('outside');
        return r[0].credits;
      });
      await Bun.sleep(50);
      await tx.query('update teams set credits = credits + 1 where id = $1', [id]);
      order.push('tx done');
    });
    expect(await outside).toBe(8);
    expect(order).toEqual(['tx done', 'outside']);
  });
});

describe('a dead worker', () => {
  test('rejects pending and later calls, and releases the directory lock', async () => {
    const root = await mkdtemp(join(tmpdir(), 'trawl-pglite-crash-'));
    const dir = join(root, 'pg');
    try {
      const { pg, close } = await openRemotePglite(dir, {
        template: await pgliteTemplate(),
        workerUrl: join(import.meta.dir, '../fixtures/pglite-crash-worker.ts'),
      });
      expect(existsSync(`${dir}.lock`)).toBe(true);
      const tx = pg.transaction(async (t) => {
        await t.query('select 1');
        await t.query('crash');
      });
      const waiting = pg.query('select 2'); // queued in the worker behind the open transaction
      const [txError, waitingError] = await Promise.all([rejectionOf(tx), rejectionOf(waiting)]);
      expect(txError.message).toMatch(/^The embedded database worker stopped unexpectedly \(exit code 7\)/);
      expect(waitingError.message).toBe(txError.message);
      expect((await rejectionOf(pg.query('select 3'))).message).toBe(txError.message);
      expect(existsSync(`${dir}.lock`)).toBe(false);
      await close(); // idempotent after a crash
      const again = await openRemotePglite(dir);
      expect((await again.pg.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await again.close();
      expect(existsSync(`${dir}.lock`)).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
