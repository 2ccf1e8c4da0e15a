/**
 * Agent requests that cannot run (issue 19): bad input is a clear 400 naming the field (never a
 * 500), unknown and malformed ids 404, another team's run 403, no key or a bad key 401 and a key
 * without the `agent` group 403, all without a model call; no model configured is a 503 naming what
 * to set. Also: a run the queue lost is failed on read (never `processing` forever), and zero data
 * retention keeps no prompt, no step input and shows the answer once.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startAgentWorld, waitForEnd, type AgentWorld } from './helpers.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { TrawlError } from '../../core/errors.ts';
import { getAgentJob } from '../../core/agent/store.ts';
import { settleLostRun } from '../../core/agent/status.ts';

setDefaultTimeout(120_000);

let w: AgentWorld;
let key: string;
let without: TestTrawl;

beforeAll(async () => {
  w = await startAgentWorld();
  ({ key } = await w.trawl.key({ credits: 1000 }));
  without = await startTrawl({ TRAWL_AUTH: 'off' });
});
afterAll(async () => {
  await w?.stop();
  await without?.stop();
});

describe('agent input', () => {
  test('bad bodies are 400s naming the field, with no model call', async () => {
    const calls = w.fake.requests.length;
    const cases: [unknown, string][] = [
      [{}, 'prompt is required'],
      [{ prompt: '   ' }, 'prompt is required'],
      [{ prompt: 'x', schema: { type: 'nope' } }, 'JSON schema is not valid'],
      [{ prompt: 'x', schema: [1, 2] }, 'schema must be a JSON Schema object'],
      [{ prompt: 'x', maxCredits: 0 }, 'maxCredits must be an integer from 1 to 100000'],
      [{ prompt: 'x', maxCredits: -5 }, 'maxCredits must be an integer'],
      [{ prompt: 'x', maxCredits: 1e9 }, 'maxCredits must be an integer'],
      [{ prompt: 'x', maxCredits: 2.5 }, 'maxCredits must be an integer'],
      [{ prompt: 'x', urls: ['not a url at all'] }, 'urls[0]'],
      [{ prompt: 'x', strictConstrainToURLs: true }, 'strictConstrainToURLs needs urls'],
      [{ prompt: 'x', threadId: 'abc' }, 'threadId is not supported'],
      [{ prompt: 'x', exchange: { enabled: true } }, 'exchange'],
      [{ prompt: 'x', mode: 'chat', schema: { type: 'object' } }, 'mode "chat"'],
      [{ prompt: 'x', webhook: 'ftp://nope' }, 'webhook.url'],
      [{ prompt: 'x', urls: Array.from({ length: 101 }, (_, i) => `http://a.example/${i}`) }, 'at most 100'],
    ];
    for (const [body, message] of cases) {
      const res = await w.trawl.post('/v2/agent', body, w.trawl.auth(key));
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain(message);
    }
    // Wrong types are refused by the body model.
    for (const body of [{ prompt: 'x', effort: 'max' }, { prompt: 'x', maxCredits: 'lots' }, { prompt: 7 }, 'not json']) {
      const res = await w.trawl.post('/v2/agent', body, w.trawl.auth(key));
      expect(res.status).toBe(400);
    }
    expect(w.fake.requests.length).toBe(calls);
  });

  test('keys: none or bad is 401, without the agent group 403, no model call', async () => {
    const calls = w.fake.requests.length;
    expect((await w.trawl.post('/v2/agent', { prompt: 'x' })).status).toBe(401);
    expect((await w.trawl.post('/v2/agent', { prompt: 'x' }, w.trawl.auth('fc-00000000000000000000000000000000'))).status).toBe(401);
    const scrapeOnly = (await w.trawl.key({ endpoints: ['scrape'] })).key;
    const refused = await w.trawl.post('/v2/agent', { prompt: 'x' }, w.trawl.auth(scrapeOnly));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('agent');
    const agentOnly = (await w.trawl.key({ endpoints: ['agent'] })).key;
    const allowed = await w.trawl.post('/v2/agent', { prompt: 'Answer' }, w.trawl.auth(agentOnly));
    expect(allowed.status).toBe(200);
    await waitForEnd(w.trawl, allowed.body.id, agentOnly);
    expect(w.fake.requests.length).toBeGreaterThan(calls); // only the admitted run called the model
    const poorKey = (await w.trawl.key({ credits: 0 })).key;
    expect((await w.trawl.post('/v2/agent', { prompt: 'x' }, w.trawl.auth(poorKey))).status).toBe(402);
  });

  test('ids: unknown and malformed 404, another team\'s 403', async () => {
    const res = await w.trawl.post('/v2/agent', { prompt: 'Answer' }, w.trawl.auth(key));
    await waitForEnd(w.trawl, res.body.id, key);
    const other = (await w.trawl.key()).key;
    for (const method of ['GET', 'DELETE']) {
      const call = (id: string, k: string) => fetch(`${w.trawl.base}/v2/agent/${id}`, { method, headers: w.trawl.auth(k) });
      expect((await call(res.body.id, other)).status).toBe(403);
      expect((await call('0190a8f0-0000-7000-8000-000000000000', key)).status).toBe(404);
      expect((await call('nope', key)).status).toBe(404);
    }
    // A crawl id is not an agent id.
    const crawl = await w.trawl.post('/v2/crawl', { url: w.shop.origin, limit: 1 }, w.trawl.auth(key));
    expect((await w.trawl.get(`/v2/agent/${crawl.body.id}`, w.trawl.auth(key))).status).toBe(404);
  });

  test('no model configured: 503 naming what to set', async () => {
    const res = await without.post('/v2/agent', { prompt: 'Find the price' });
    expect(res.status).toBe(503);
    expect(res.body.error).toContain('OPENAI_BASE_URL');
    expect(res.body.error).toContain('MODEL_NAME');
    // Bad input is still a 400 first.
    expect((await without.post('/v2/agent', {})).status).toBe(400);
  });

  test('a run the queue lost is failed on read, not processing forever', async () => {
    const db = w.trawl.running.services.db;
    const { team } = await w.trawl.key({ credits: 10 });
    const k = (await w.trawl.key({ team })).key;
    const id = '0190a8f0-1111-7000-8000-000000000001';
    await db.query(
      `insert into jobs (id, team_id, kind, status, options, created_at, updated_at, expires_at) values ($1, $2, 'agent', 'processing', $3, now() - interval '5 minutes', now() - interval '5 minutes', now() + interval '1 day')`,
      [id, team, { model: 'spark-1-pro', mode: 'extract', maxCredits: 10, maxSteps: 20 }],
    );
    const res = await w.trawl.get(`/v2/agent/${id}`, w.trawl.auth(k));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toContain('lost');
    // A run that changed moments ago is not asked about (it may be between steps).
    const fresh = '0190a8f0-1111-7000-8000-000000000004';
    await db.query(
      `insert into jobs (id, team_id, kind, status, options, created_at, expires_at) values ($1, $2, 'agent', 'processing', $3, now() - interval '5 minutes', now() + interval '1 day')`,
      [fresh, team, { model: 'spark-1-pro', mode: 'extract', maxCredits: 10, maxSteps: 20 }],
    );
    expect((await w.trawl.get(`/v2/agent/${fresh}`, w.trawl.auth(k))).body.status).toBe('processing');
  });

  test('a run the queue failed (JOB_INTERRUPTED: its worker died twice) is failed with that error', async () => {
    const services = w.trawl.running.services;
    const { team } = await w.trawl.key({ credits: 10 });
    const id = '0190a8f0-2222-7000-8000-000000000002';
    await services.db.query(
      `insert into jobs (id, team_id, kind, status, options, updated_at, expires_at) values ($1, $2, 'agent', 'processing', $3, now() - interval '1 minute', now() + interval '1 day')`,
      [id, team, { model: 'spark-1-pro', mode: 'extract', maxCredits: 10, maxSteps: 20 }],
    );
    const interrupted = new TrawlError('JOB_INTERRUPTED', 'The job was interrupted twice: the worker running it stopped.');
    const queue = { ...services.queue, waitFor: async () => Promise.reject(interrupted) };
    const job = (await getAgentJob(services.db, id))!;
    const settled = await settleLostRun({ ...services, queue }, job);
    expect(settled.status).toBe('failed');
    expect(settled.error).toMatchObject({ code: 'JOB_INTERRUPTED' });
    // A run the queue still has (a wait timeout) is left alone.
    const running = '0190a8f0-3333-7000-8000-000000000003';
    await services.db.query(
      `insert into jobs (id, team_id, kind, status, options, updated_at, expires_at) values ($1, $2, 'agent', 'processing', '{}', now() - interval '1 minute', now() + interval '1 day')`,
      [running, team],
    );
    const busy = { ...services.queue, waitFor: async () => Promise.reject(new TrawlError('GATEWAY_TIMEOUT', 'wait', { details: { reason: 'wait_timeout' } })) };
    expect((await settleLostRun({ ...services, queue: busy }, (await getAgentJob(services.db, running))!)).status).toBe('processing');
  });

  test('zero data retention: no prompt or step input kept, the answer shown once', async () => {
    const { key: zk, team } = await w.trawl.key({ zdr: true, credits: 1000 });
    w.turns.push({ toolCalls: [{ name: 'scrape', arguments: { url: `${w.shop.origin}/products/widget` } }] }, { json: { price: 19.99 } });
    const res = await w.trawl.post('/v2/agent', { prompt: 'Secret question about the widget', zeroDataRetention: true }, w.trawl.auth(zk));
    expect(res.status).toBe(200);
    const end = await waitForEnd(w.trawl, res.body.id, zk);
    expect(end.status).toBe('completed');
    expect(end.data).toEqual({ price: 19.99 });
    expect(end.trace.every((s: any) => s.input === undefined && s.summary === undefined)).toBe(true);
    const again = await w.trawl.get(`/v2/agent/${res.body.id}`, w.trawl.auth(zk));
    expect(again.body.data).toBeUndefined();
    const [row] = await w.trawl.running.services.db.query('select options::text as o from jobs where id = $1', [res.body.id]);
    expect(row.o).not.toContain('Secret question');
    // A team without zero data retention cannot ask for it.
    expect((await w.trawl.post('/v2/agent', { prompt: 'x', zeroDataRetention: true }, w.trawl.auth(key))).status).toBe(400);
    expect(team).toBeTruthy();
  });
});
