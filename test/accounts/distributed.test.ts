/**
 * Limits across processes (compat.md §18.2): two `api` processes and two `worker` processes on one
 * Postgres database and one Redis (with a key prefix of their own). Rate limits count requests to
 * both api processes together, and the team concurrency limit holds across both workers: the fixture
 * site never sees more simultaneous requests of the team than its limit.
 */
import { afterAll, beforeAll, expect, test, setDefaultTimeout } from 'bun:test';
import { createClient } from 'redis';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../helpers/db.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { openDatabase, type Database } from '../../core/db/client.ts';
import { silentLogger } from '../../core/log.ts';
import { runAdmin } from '../../core/admin/cli.ts';
import { spawnTrawl, type TrawlProcess } from './processes.ts';

setDefaultTimeout(60_000);

const REDIS_URL = 'redis://127.0.0.1:6379';
const PREFIX = `trawl-test-acct-${crypto.randomUUID().slice(0, 8)}`;

let site: FixtureSite;
let created: TestDatabaseConfig;
let db: Database;
const procs: TrawlProcess[] = [];
let api1: TrawlProcess;
let api2: TrawlProcess;
let inFlight = 0;
let peak = 0;

async function makeKey(credits: number, concurrency: number): Promise<{ key: string; team: string }> {
  let out = '';
  const io = { out: (t: string) => (out += t), err: (t: string) => (out += t), defaults: { credits, concurrency } };
  const name = `dist-${crypto.randomUUID().slice(0, 8)}`;
  expect(await runAdmin(['teams', 'create', name, '--credits', String(credits), '--concurrency', String(concurrency)], db, io)).toBe(0);
  const team = out.split(/\s+/)[0];
  expect(await runAdmin(['keys', 'create', '--team', name], db, io)).toBe(0);
  return { key: out.match(/fc-[0-9a-f]{32}/)![0], team };
}

beforeAll(async () => {
  site = serveFixtures({
    '/slow': async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await Bun.sleep(1500); // long enough for the two status reads below while two are in flight
      inFlight--;
      return new Response('<html><body><p>Slow page.</p></body></html>', { headers: { 'content-type': 'text/html' } });
    },
    '/page': '<html><body><p>Quick page.</p></body></html>',
  });
  created = await createTestDatabaseConfig('postgres', { migrated: true });
  db = await openDatabase(created.config, silentLogger); // applies migrations before the processes start
  const env = {
    DATABASE_URL: created.config.databaseUrl!,
    REDIS_URL,
    TRAWL_REDIS_PREFIX: PREFIX,
    TRAWL_STATUS_RATE_LIMIT_PER_MINUTE: '10',
    TRAWL_KEYLESS_RATE_LIMIT_PER_MINUTE: '3',
  };
  api1 = await spawnTrawl('api', env);
  procs.push(api1);
  const started = await Promise.all([spawnTrawl('api', env), spawnTrawl('worker', env), spawnTrawl('worker', env)]);
  procs.push(...started);
  api2 = started[0];
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.close();
  await created?.cleanup();
  site?.stop();
  const redis = createClient({ url: REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.close();
});

async function call(base: string, method: string, path: string, key?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any, retryAfter: res.headers.get('retry-after') };
}

test('the status-read limit of a key counts requests to both api processes', async () => {
  const { key } = await makeKey(100, 5);
  const results = [];
  for (let i = 0; i < 12; i++) results.push(await call(i % 2 ? api1.base! : api2.base!, 'GET', '/v2/concurrency-check', key));
  expect(results.filter((r) => r.status === 200).length).toBe(10);
  const limited = results.filter((r) => r.status === 429);
  expect(limited.length).toBe(2);
  expect(Number(limited[0].retryAfter)).toBeGreaterThanOrEqual(1);
});

test('the keyless per-IP limit counts scrapes to both api processes', async () => {
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await call(i % 2 ? api1.base! : api2.base!, 'POST', '/v2/scrape', undefined, { url: site.url('/page') })).status);
  expect(statuses.filter((s) => s === 200).length).toBe(3);
  expect(statuses.filter((s) => s === 429).length).toBe(1);
});

test('the team concurrency limit holds across both api and both worker processes', async () => {
  const { key, team } = await makeKey(100, 2);
  peak = 0;
  const scrapes = Array.from({ length: 6 }, (_, i) => call(i % 2 ? api1.base! : api2.base!, 'POST', '/v2/scrape', key, { url: site.url('/slow'), timeout: 30000 }));
  // Wait until the fixture serves two of them at once (no fixed sleep: a loaded machine may take a
  // while to start them; status reads are rate-limited, so the fixture is watched, not the API).
  const until = Date.now() + 60_000; // hang bound only
  while (inFlight < 2 && Date.now() < until) await Bun.sleep(20);
  const during = await call(api2.base!, 'GET', '/v2/concurrency-check', key);
  expect(during.body).toEqual({ success: true, concurrency: 2, maxConcurrency: 2 });
  const queue = await call(api1.base!, 'GET', '/v2/team/queue-status', key);
  expect(queue.body.activeJobsInQueue).toBe(2);
  expect(queue.body.waitingJobsInQueue).toBeGreaterThanOrEqual(1);
  const results = await Promise.all(scrapes);
  expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(peak).toBe(2);
  expect(results.filter((r) => r.body.data.metadata.concurrencyLimited === true).length).toBeGreaterThanOrEqual(3);
  const rows = await db.query<{ credits: number }>('select credits from teams where id = $1', [team]);
  expect(Number(rows[0].credits)).toBe(94);
});
