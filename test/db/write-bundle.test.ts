/**
 * core/store/write-bundle.ts: independent writes run as one statement, each writer's outcome kept
 * (a failing write fails alone, the others still land), on both database kinds.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Queryable } from '../../core/db/client.ts';
import { writeBundle } from '../../core/store/write-bundle.ts';
import { forEachDatabase, openTestDatabase, rejectionOf, type TestDatabase } from '../helpers/db.ts';

forEachDatabase((kind) => {
  describe(`write bundle on ${kind}`, () => {
    let t: TestDatabase;
    const table = `wb_${crypto.randomUUID().slice(0, 8)}`;
    beforeAll(async () => {
      t = await openTestDatabase(kind);
      await t.db.query(`create table ${table} (id text primary key, n int not null, note text)`);
    });
    afterAll(async () => {
      await t.db.query(`drop table if exists ${table}`).catch(() => {});
      await t.close();
    });

    test('several writes go as one statement; a WITH statement keeps its own names', async () => {
      const seen: string[] = [];
      const spy: Queryable = { query: <T>(sql: string, params?: unknown[]) => (seen.push(sql), t.db.query<T>(sql, params)) };
      const b = writeBundle(spy);
      const writes = [
        b.query(`insert into ${table} (id, n, note) values ($1, $2, 'it''s (a) note')`, ['a', 1]),
        b.query(`with ins as (insert into ${table} (id, n) values ($1, $2) returning n) update ${table} set n = ${table}.n + ins.n from ins where ${table}.id = $3`, ['b', 2, 'a']),
        b.query(`insert into ${table} (id, n) values ($1, $2) on conflict (id) do nothing`, ['c', 3]),
      ];
      b.flush();
      expect(await Promise.all(writes)).toEqual([[], [], []]);
      expect(seen.length).toBe(1);
      // One snapshot: the update did not see the row inserted beside it ('a' keeps n = 1).
      expect(await t.db.query(`select id, n, note from ${table} order by id`)).toEqual([
        { id: 'a', n: 1, note: "it's (a) note" },
        { id: 'b', n: 2, note: null },
        { id: 'c', n: 3, note: null },
      ]);
      // After flush, a statement runs on its own at once.
      expect(await b.query(`select count(*)::int as n from ${table}`)).toEqual([{ n: 3 }]);
    });

    test('when the bundle fails, each write runs alone: only the bad one fails', async () => {
      let statements = 0;
      const b = writeBundle({ query: <T>(sql: string, params?: unknown[]) => (statements++, t.db.query<T>(sql, params)) });
      const good = b.query(`insert into ${table} (id, n) values ($1, $2)`, ['d', 4]);
      const bad = b.query(`insert into ${table} (id, n) values ($1, $2)`, ['a', 5]); // duplicate key
      b.flush();
      await good;
      expect(await rejectionOf(bad)).toBeInstanceOf(Error);
      expect(statements).toBe(3);
      expect(await t.db.query(`select n from ${table} where id = any($1::text[]) order by id`, [['a', 'd']])).toEqual([{ n: 1 }, { n: 4 }]);
    });

    test('a gated write joins the statement; on fallback it runs only after its gate, and not at all when the gate fails', async () => {
      let statements = 0;
      const db: Queryable = { query: <T>(sql: string, params?: unknown[]) => (statements++, t.db.query<T>(sql, params)) };
      // Together: one statement.
      const one = writeBundle(db);
      const doc = one.query(`insert into ${table} (id, n) values ($1, $2)`, ['g1', 1]);
      const charge = one.after(doc).query(`insert into ${table} (id, n) values ($1, $2)`, ['g1-charge', 1]);
      one.flush();
      await Promise.all([doc, charge]);
      expect(statements).toBe(1);
      // The bundle fails because its first write fails: the gated write is dropped, the ungated one lands.
      statements = 0;
      const two = writeBundle(db);
      const bad = two.query(`insert into ${table} (id, n) values ($1, $2)`, ['g1', 2]); // duplicate key
      const other = two.query(`insert into ${table} (id, n) values ($1, $2)`, ['g2', 2]);
      const gated = two.after(bad).query(`insert into ${table} (id, n) values ($1, $2)`, ['g2-charge', 2]);
      two.flush();
      expect(await rejectionOf(bad)).toBeInstanceOf(Error);
      await other;
      expect(await gated).toEqual([]);
      expect(statements).toBe(3); // the bundle, then the two ungated writes alone
      expect(await t.db.query(`select id from ${table} where id like 'g%' order by id`)).toEqual([{ id: 'g1' }, { id: 'g1-charge' }, { id: 'g2' }]);
    });
  });
});
