/**
 * Migration 0011 (issue 15 items 3 and 13) on a database that already has search rows: they are given
 * to the built-in local team (invisible with keys on unless the operator makes it public), the same
 * URL can then be indexed by another team, and teams gain an empty webhook secret column.
 */
import { afterAll, expect, test } from 'bun:test';
import postgres from 'postgres';
import { migrations } from '../../core/db/migrations/index.ts';
import { LOCAL_TEAM_ID } from '../../core/auth/authenticate.ts';
import { TEST_POSTGRES_URL } from '../helpers/db.ts';

const name = `trawl_tenancy_${process.pid}_${Date.now()}`;
const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
let sql: postgres.Sql | undefined;

afterAll(async () => {
  await sql?.end();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

test('rows indexed before 0011 belong to the local team; other teams can index the same URL', async () => {
  await admin.unsafe(`create database ${name}`);
  sql = postgres(TEST_POSTGRES_URL.replace(/\/test$/, `/${name}`), { max: 1, onnotice: () => {} });
  const before = migrations.filter((m) => m.name < '0011');
  const tenancy = migrations.find((m) => m.name.startsWith('0011_tenancy'))!;
  for (const m of before) await sql.unsafe(m.sql);
  await sql.unsafe(`insert into search_index (url, host, title, content) values ('https://old.example/', 'old.example', 'Old', 'old words')`);
  await sql.unsafe(tenancy.sql);
  expect((await sql.unsafe('select team_id, url from search_index')).map((r) => ({ team_id: r.team_id, url: r.url }))).toEqual([{ team_id: LOCAL_TEAM_ID, url: 'https://old.example/' }]);
  await sql.unsafe(`insert into search_index (team_id, url, host) values ('team-b', 'https://old.example/', 'old.example')`);
  expect((await sql.unsafe('select count(*)::int as n from search_index'))[0].n).toBe(2);
  const cols = await sql.unsafe(`select column_name from information_schema.columns where table_name = 'teams' and column_name = 'webhook_secret'`);
  expect(cols.length).toBe(1);
});
