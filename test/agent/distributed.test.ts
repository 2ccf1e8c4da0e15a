/**
 * The agent in the distributed mode (issue 19): runs are jobs on the BullMQ queue, run by `worker`
 * processes (real Redis, Postgres and bin/trawl.ts processes, test/crawl/cluster.ts). A run works
 * end to end on a worker; a cancel sent to the api process stops the worker's hanging model call; a
 * worker SIGKILLed in the middle of a run leaves no run in `processing`: another worker takes it over
 * once BullMQ sees the job stalled, and the run ends.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startCluster, type Cluster } from '../crawl/cluster.ts';
import { startFakeChat, type FakeAnswer, type FakeChat } from '../fakes/openai-chat.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { isAgentTurn, startShop, until } from './helpers.ts';

setDefaultTimeout(240_000);

let cluster: Cluster;
let fake: FakeChat;
let shop: FixtureSite;
const turns: FakeAnswer[] = [];

const post = async (path: string, body: unknown) => {
  const res = await fetch(cluster.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const get = async (path: string) => (await (await fetch(cluster.base + path)).json()) as any;
const agentCalls = () => fake.requests.filter((r) => isAgentTurn(r.body)).length;

async function waitEnd(id: string, ms: number): Promise<any> {
  let last: any;
  await until(async () => (last = await get(`/v2/agent/${id}`)).status !== 'processing', ms, `agent ${id} to end`);
  return last;
}

beforeAll(async () => {
  fake = startFakeChat({ respond: (body) => (isAgentTurn(body) ? turns.shift() : undefined) });
  shop = startShop();
  // A 10 s queue lock: a killed worker's run is taken over within about 20 s instead of a minute.
  cluster = await startCluster(1, { OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-model', TRAWL_QUEUE_LOCK_MS: '10000' });
});
afterAll(async () => {
  await cluster?.stop();
  fake?.stop();
  shop?.stop();
});

describe('agent on workers', () => {
  test('a run completes on a worker process', async () => {
    turns.push({ toolCalls: [{ name: 'scrape', arguments: { url: `${shop.origin}/products/gadget` } }] }, { json: { price: 5 } });
    const res = await post('/v2/agent', { prompt: 'What does the Gadget cost?', urls: [shop.origin] });
    expect(res.status).toBe(200);
    const end = await waitEnd(res.body.id, 90_000);
    expect(end.status).toBe('completed');
    expect(end.data).toEqual({ price: 5 });
    expect(end.trace.find((s: any) => s.type === 'tool')).toMatchObject({ tool: 'scrape', ok: true, creditsUsed: 1 });
    expect(fake.requests.filter((r) => isAgentTurn(r.body)).at(-1)!.body.messages.some((m: any) => m.role === 'tool' && m.content.includes('$5.00'))).toBe(true);
  });

  test('a cancel on the api stops the hanging model call on the worker', async () => {
    const before = agentCalls();
    turns.push({ hang: true });
    const res = await post('/v2/agent', { prompt: 'Hang' });
    await until(() => agentCalls() > before && fake.inFlight > 0, 60_000, 'the hanging model call');
    const del = await fetch(`${cluster.base}/v2/agent/${res.body.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await get(`/v2/agent/${res.body.id}`)).status).toBe('cancelled');
    // The worker aborts the call (generous bound; it polls every 500 ms).
    await until(() => fake.inFlight === 0, 20_000, 'the model call to be aborted');
    await Bun.sleep(1000);
    expect(agentCalls()).toBe(before + 1);
  });

  test('a worker killed mid-run: the run is taken over and ends', async () => {
    const before = agentCalls();
    turns.push({ hang: true }, { json: { resumed: true } });
    const res = await post('/v2/agent', { prompt: 'Survive a crash' });
    await until(() => agentCalls() > before && fake.inFlight > 0, 60_000, 'the hanging model call');
    await cluster.killWorker(0);
    cluster.startWorker();
    // BullMQ notices the stalled job once the dead worker's lock (TRAWL_QUEUE_LOCK_MS, 10 s) expires.
    const end = await waitEnd(res.body.id, 180_000);
    expect(['completed', 'failed']).toContain(end.status);
    expect(end.status).toBe('completed');
    expect(end.data).toEqual({ resumed: true });
  });
});
