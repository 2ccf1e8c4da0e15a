/**
 * core/store/group-commit.ts: bundles of row-additive writes flushed while an earlier group runs go
 * together as one statement; every member's rows land, a team charged by several members in one
 * group is charged for each, and a failing member fails alone (the others still land), on both
 * database kinds. Also the text checks of core/store/sql-merge.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Queryable } from '../../core/db/client.ts';
import { writeBundle } from '../../core/store/write-bundle.ts';
import { mergeRows, rowAdditive } from '../../core/store/sql-merge.ts';
import { groupStatement } from '../../core/store/group-commit.ts';
import { saveDocument } from '../../core/store/documents.ts';
import { saveScrapeRecord } from '../../core/interact/records.ts';
import { recordActivity } from '../../core/audit/activity.ts';
import { chargeCredits } from '../../core/credits/ledger.ts';
import { newId } from '../../core/ids.ts';
import { forEachDatabase, openTestDatabase, rejectionOf, type TestDatabase } from '../helpers/db.ts';
import { resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';

describe('row-additive statements', () => {
  test('copies merge into one VALUES list, parameters renumbered; other shapes are refused', () => {
    const sql = rowAdditive(`insert into t_merge (a, b, c) values ($1, $2, now()) on conflict (a) do nothing`);
    expect(mergeRows([{ sql, params: [1, 'x'] }, { sql, params: [2, 'y'] }])).toEqual({
      sql: `insert into t_merge (a, b, c) values ($1, $2, now()), ($3, $4, now()) on conflict (a) do nothing`,
      params: [1, 'x', 2, 'y'],
    });
    expect(() => rowAdditive('update t_merge set a = $1')).toThrow(/VALUES/);
    expect(() => rowAdditive('with i as (insert into t (a) values ($1) returning a) update u set n = n + 1 where id = $2')).toThrow(/parameters only/);
    expect(() => mergeRows([{ sql: 'insert into t_merge (a) values ($1)', params: [1] }, { sql: 'insert into t_merge (a) values ($1)', params: [2] }])).toThrow(/not a row-additive/);
    // A statement cheaper alone than in its additive form: alone as it is, merged in the other form.
    const plain = rowAdditive(
      'with i as (insert into t_m2 (a, t) values ($1, $2) returning a) update u set n = n + i.a from i where u.id = $2',
      'with i as (insert into t_m2 (a, t) values ($1, $2) returning a, t) update u set n = n + s.a from (select t, sum(a) as a from i group by t) s where u.id = s.t',
    );
    expect(mergeRows([{ sql: plain, params: [1, 'x'] }])).toEqual({ sql: plain, params: [1, 'x'] });
    expect(mergeRows([{ sql: plain, params: [1, 'x'] }, { sql: plain, params: [2, 'x'] }]).sql)
      .toBe('with i as (insert into t_m2 (a, t) values ($1, $2), ($3, $4) returning a, t) update u set n = n + s.a from (select t, sum(a) as a from i group by t) s where u.id = s.t');
    expect(() => rowAdditive('insert into t_m3 (a) values ($1)', 'insert into t_m3 (a) values ($1, 1)')).toThrow(/VALUES row/);
  });

  test('a group of one member is its bundle statement unchanged; several members share one statement', () => {
    const a = rowAdditive('insert into t_g1 (a) values ($1)');
    const b = rowAdditive('insert into t_g2 (a, b) values ($1, $2)');
    expect(groupStatement([[{ sql: a, params: [1] }]])).toEqual({ sql: a, params: [1] });
    const two = groupStatement([[{ sql: a, params: [1] }, { sql: b, params: [2, 3] }], [{ sql: a, params: [4] }, { sql: b, params: [5, 6] }]]);
    expect(two.params).toEqual([1, 4, 2, 3, 5, 6]);
    expect(two.sql).toContain('insert into t_g1 (a) values ($1), ($2)');
    expect(two.sql).toContain('insert into t_g2 (a, b) values ($3, $4), ($5, $6)');
    // The same shape again: the text made once, the new parameters in the same order.
    expect(groupStatement([[{ sql: a, params: [7] }, { sql: b, params: [8, 9] }], [{ sql: a, params: [10] }, { sql: b, params: [11, 12] }]]))
      .toEqual({ sql: two.sql, params: [7, 10, 8, 9, 11, 12] });
    expect(() => groupStatement([[{ sql: a, params: [1, 2] }], [{ sql: a, params: [3] }]])).toThrow(/copies differ/);
  });
});

forEachDatabase((kind) => {
  describe(`group commit on ${kind}`, () => {
    let t: TestDatabase;
    const teamId = newId();
    const table = `gc_${crypto.randomUUID().slice(0, 8)}`;
    beforeAll(async () => {
      t = await openTestDatabase(kind);
      await t.db.query(`insert into teams (id, name, credits, concurrency) values ($1, 'group', 1000, 10)`, [teamId]);
      await t.db.query(`create table ${table} (id text primary key, n int not null)`);
    });
    afterAll(async () => {
      await t.db.query(`drop table if exists ${table}`).catch(() => {});
      await t.close();
    });

    /** What one cached scrape writes, through a grouped bundle over `db`, like core/jobs/scrape.ts. */
    function hit(db: Queryable, scrapeId: string) {
      const b = writeBundle(db, { group: true });
      const options = resolveScrapeOptions({}, new Map());
      const doc = saveDocument(b, { id: scrapeId, teamId, url: 'https://example.test/', sourceUrl: 'https://example.test/', statusCode: 200, body: `{"id":"${scrapeId}"}` });
      const record = saveScrapeRecord(b, { id: scrapeId, teamId, url: 'https://example.test/', sourceUrl: 'https://example.test/', options });
      const gated = b.after(Promise.all([doc, record]));
      const activity = recordActivity(gated, { id: scrapeId, teamId, kind: 'scrape', status: 'completed', url: 'https://example.test/', credits: 1, zeroDataRetention: false });
      const charge = chargeCredits(gated, { teamId, kind: 'scrape', refId: scrapeId, credits: 1 });
      b.flush();
      return Promise.all([doc, record, activity, charge]);
    }

    test('hits flushed while a group runs share the next statement, and each is stored and charged once', async () => {
      const statements: string[] = [];
      const db: Queryable = { query: <T>(sql: string, params?: unknown[]) => (statements.push(sql), t.db.query<T>(sql, params)) };
      const ids = Array.from({ length: 12 }, () => newId());
      await Promise.all(ids.map((id) => hit(db, id)));
      // The first hit runs at once, alone; the other eleven arrive meanwhile and form one group.
      expect(statements.length).toBe(2);
      const [docs] = await t.db.query<{ n: number }>('select count(*)::int as n from documents where id = any($1::text[])', [ids]);
      const [records] = await t.db.query<{ n: number }>('select count(*)::int as n from scrape_records where id = any($1::text[])', [ids]);
      const [activity] = await t.db.query<{ n: number }>('select count(*)::int as n from team_activity where id = any($1::text[])', [ids]);
      const [ledger] = await t.db.query<{ n: number; s: number }>('select count(*)::int as n, sum(delta)::int as s from credit_ledger where ref_id = any($1::text[])', [ids]);
      expect([docs!.n, records!.n, activity!.n, ledger!.n, ledger!.s]).toEqual([12, 12, 12, 12, -12]);
      const [team] = await t.db.query<{ credits: number }>('select credits from teams where id = $1', [teamId]);
      expect(Number(team!.credits)).toBe(1000 - 12);
      // Charging the same scrapes again (a retry) changes nothing, grouped or not.
      await Promise.all(ids.slice(0, 4).map((id) => hit(db, id)));
      const [again] = await t.db.query<{ credits: number }>('select credits from teams where id = $1', [teamId]);
      expect(Number(again!.credits)).toBe(1000 - 12);
    });

    test('a member whose write fails fails alone: the group falls back, the others land', async () => {
      const insert = rowAdditive(`insert into ${table} (id, n) values ($1, $2)`);
      await t.db.query(insert, ['taken', 0]);
      let statements = 0;
      const db: Queryable = { query: <T>(sql: string, params?: unknown[]) => (statements++, t.db.query<T>(sql, params)) };
      const write = (id: string, n: number) => {
        const b = writeBundle(db, { group: true });
        const p = b.query(insert, [id, n]);
        b.flush();
        return p;
      };
      const first = write('a', 1); // runs at once, alone
      const rest = [write('b', 2), write('taken', 3), write('c', 4)]; // one group: fails on 'taken'
      await first;
      const outcomes = await Promise.allSettled(rest);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await rejectionOf(rest[1]!)).toBeInstanceOf(Error);
      expect(statements).toBe(1 + 1 + 3); // the first; the group; each member again on its own
      expect(await t.db.query(`select id, n from ${table} order by id`)).toEqual([
        { id: 'a', n: 1 }, { id: 'b', n: 2 }, { id: 'c', n: 4 }, { id: 'taken', n: 0 },
      ]);
    });
  });
});
