/**
 * Extract in distributed mode (issue 19 scope 3): api + worker processes of bin/trawl.ts on Redis
 * (BullMQ) and PostgreSQL. An extract runs on a worker. When that worker is killed with SIGKILL in
 * the middle of it (its model call held open): with another worker running, the job is resumed there
 * once its lock (TRAWL_QUEUE_LOCK_MS) expires and completes; with no worker left, the job does not stay `processing`: a
 * status read ends it `failed` with EXTRACT_TIMEOUT once its timeout and the grace have passed
 * (core/extract/status.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { freePort, startCluster, type Cluster } from '../crawl/cluster.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { answerFor, startShop } from './site.ts';

let cluster: Cluster;
let fake: FakeChat;
let shop: FixtureSite;
let spare: Subprocess | undefined;
/** The queue lock (and so the lost-job grace after the timeout): 10 s, not the default 30 s, so failover takes about 20 s. */
const LOCK_MS = '10000';
const spareDir = mkdtempSync(join(tmpdir(), 'trawl-extract-worker-'));

/** Starts one more worker process on the cluster's Redis and database. */
function startSpareWorker(): Subprocess {
  return Bun.spawn(['bun', join(import.meta.dir, '../../bin/trawl.ts'), 'worker'], {
    cwd: spareDir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? spareDir, DATABASE_URL: cluster.databaseUrl, REDIS_URL: cluster.redis.url,
      TRAWL_AUTH: 'off', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(freePort()),
      TRAWL_DATA_DIR: join(spareDir, 'data'), OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-extract', TRAWL_QUEUE_LOCK_MS: LOCK_MS,
    },
    stdout: 'ignore',
    stderr: 'ignore',
  });
}

async function poll(id: string, boundMs: number): Promise<any> {
  const since = Date.now();
  for (;;) {
    const res = await api(`/v2/extract/${id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    if (body.status !== 'processing') return body;
    if (Date.now() - since > boundMs) throw new Error(`extract ${id} stayed processing for ${boundMs} ms`);
    await Bun.sleep(500);
  }
}

async function midExtract(): Promise<void> {
  for (let i = 0; fake.requests.length === 0; i++) {
    if (i > 600) throw new Error('the worker never called the model');
    await Bun.sleep(100);
  }
}

beforeAll(async () => {
  shop = startShop(3);
  fake = startFakeChat({ respond: (body) => ({ json: answerFor(JSON.stringify(body.messages)) ?? { products: [] } }) });
  cluster = await startCluster(1, { OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-extract', TRAWL_QUEUE_LOCK_MS: LOCK_MS });
}, 180_000);
afterAll(async () => {
  spare?.kill('SIGKILL');
  await spare?.exited;
  rmSync(spareDir, { recursive: true, force: true });
  await cluster?.stop();
  fake?.stop();
  shop?.stop();
}, 60_000);

const api = (path: string, init?: RequestInit) => fetch(`${cluster.base}${path}`, { ...init, headers: { 'content-type': 'application/json' } });

describe('extract on a worker process', () => {
  test('runs on the worker', async () => {
    const started = await (await api('/v2/extract', { method: 'POST', body: JSON.stringify({ urls: [shop.url('/p/1')], prompt: 'products' }) })).json();
    expect(started.success).toBe(true);
    let body: any;
    for (let i = 0; i < 600; i++) {
      body = await (await api(`/v2/extract/${started.id}`)).json();
      if (body.status !== 'processing') break;
      await Bun.sleep(100);
    }
    expect(body.status).toBe('completed');
    expect(body.data.products).toEqual([{ name: 'Widget 1', price: 11 }]);
  }, 90_000);

  test('a worker killed with SIGKILL mid-extract, another worker running: the job is resumed and completes', async () => {
    fake.reset();
    fake.script({ hang: true });
    const started = await (await api('/v2/extract', { method: 'POST', body: JSON.stringify({ urls: [shop.url('/p/3')], prompt: 'products', timeout: 150_000 }) })).json();
    await midExtract();
    await cluster.killWorker(0);
    spare = startSpareWorker();
    // BullMQ's stalled check hands the job over once the dead worker's lock (LOCK_MS) expires.
    const body = await poll(started.id, 120_000);
    expect(body.status).toBe('completed');
    expect(body.data.products).toEqual([{ name: 'Widget 3', price: 13 }]);
    expect(fake.requests.length).toBe(2);
  }, 180_000);

  test('a worker killed with SIGKILL mid-extract, no worker left: the job ends failed, never processing forever', async () => {
    fake.reset();
    fake.script({ hang: true });
    const timeout = 10_000;
    const started = await (await api('/v2/extract', { method: 'POST', body: JSON.stringify({ urls: [shop.url('/p/2')], prompt: 'products', timeout }) })).json();
    expect(started.success).toBe(true);
    await midExtract();
    spare!.kill('SIGKILL');
    await spare!.exited;
    // Hang bound: the timeout + the grace (LOCK_MS), with room for a loaded machine.
    const body = await poll(started.id, timeout + 90_000);
    expect(body.status).toBe('failed');
    expect(body.success).toBe(true);
    expect(body.code).toBe('EXTRACT_TIMEOUT');
    expect(body.error).toContain('worker');
  }, 180_000);
});
