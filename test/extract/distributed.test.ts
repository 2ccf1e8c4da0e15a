/**
 * Extract in distributed mode (issue 19 scope 3): api + worker processes of bin/trawl.ts on Redis
 * (BullMQ) and PostgreSQL. An extract runs on a worker; when that worker is killed with SIGKILL in
 * the middle of it (its model call held open) and no worker is left to take the job over, the job
 * does not stay `processing`: a status read ends it `failed` with EXTRACT_TIMEOUT once its timeout
 * and the grace have passed (core/extract/status.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startCluster, type Cluster } from '../crawl/cluster.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { answerFor, startShop } from './site.ts';

let cluster: Cluster;
let fake: FakeChat;
let shop: FixtureSite;

beforeAll(async () => {
  shop = startShop(3);
  fake = startFakeChat({ respond: (body) => ({ json: answerFor(JSON.stringify(body.messages)) ?? { products: [] } }) });
  cluster = await startCluster(1, { OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-extract' });
}, 90_000);
afterAll(async () => {
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

  test('a worker killed with SIGKILL mid-extract: the job ends failed, never processing forever', async () => {
    fake.reset();
    fake.script({ hang: true });
    const timeout = 10_000;
    const started = await (await api('/v2/extract', { method: 'POST', body: JSON.stringify({ urls: [shop.url('/p/2')], prompt: 'products', timeout }) })).json();
    expect(started.success).toBe(true);
    // Mid-extract: the worker waits for the model.
    for (let i = 0; fake.requests.length === 0; i++) {
      if (i > 600) throw new Error('the worker never called the model');
      await Bun.sleep(100);
    }
    await cluster.killWorker(0);
    const killedAt = Date.now();
    let body: any;
    for (;;) {
      const res = await api(`/v2/extract/${started.id}`);
      expect(res.status).toBe(200);
      body = await res.json();
      if (body.status !== 'processing') break;
      // Hang bound: the timeout + 30 s grace, with room for a loaded machine.
      if (Date.now() - killedAt > timeout + 90_000) throw new Error('the extract stayed processing');
      await Bun.sleep(500);
    }
    expect(body.status).toBe('failed');
    expect(body.success).toBe(true);
    expect(body.code).toBe('EXTRACT_TIMEOUT');
    expect(body.error).toContain('worker');
  }, 180_000);
});
