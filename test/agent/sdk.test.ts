/**
 * The official SDK `firecrawl@4.42.0`, unchanged, on the agent (issue 19): `agent` (a zod schema and
 * a JSON schema), `startAgent` + `getAgentStatus`, and `cancelAgent`, against the fake model scripting
 * tool calls over the shop site on 127.0.0.1. The scripted run uses every tool (search through the
 * fake Serper, map, scrape, extract through the json format), and its trace, tokens, credits and the
 * team's ledger agree.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { z } from 'zod';
import { startAgentWorld, until, type AgentWorld } from './helpers.ts';

setDefaultTimeout(120_000);

let w: AgentWorld;
let key: string;
let team: string;
const sdk = () => new Firecrawl({ apiKey: key, apiUrl: w.trawl.base });

beforeAll(async () => {
  w = await startAgentWorld();
  ({ key, team } = await w.trawl.key({ credits: 5000 }));
});
afterAll(async () => {
  await w?.stop();
});

describe('firecrawl SDK agent', () => {
  test('agent with a zod schema: search, map, scrape and extract, then the answer', async () => {
    const widget = `${w.shop.origin}/products/widget`;
    w.turns.push(
      { toolCalls: [{ name: 'search', arguments: { query: 'tide tables', limit: 3 } }] },
      { toolCalls: [{ name: 'map', arguments: { url: w.shop.origin } }] },
      { toolCalls: [{ name: 'scrape', arguments: { url: widget } }] },
      { toolCalls: [{ name: 'extract', arguments: { urls: [widget] } }] },
      { json: { product: 'Widget', price: 19.99 } },
    );
    w.formatAnswer = { json: { product: 'Widget', price: 19.99 } };
    const before = await w.trawl.credits(team);
    const schema = z.object({ product: z.string(), price: z.number() });
    const res = await sdk().agent({ prompt: 'What does the Widget cost?', urls: [w.shop.origin], schema, model: 'spark-1-mini', auditMetadata: { username: 'ada' }, pollInterval: 1, timeout: 90 });
    expect(res.status).toBe('completed');
    expect(res.data).toEqual({ product: 'Widget', price: 19.99 });
    expect(res.model).toBe('spark-1-mini');
    expect(res.creditsUsed).toBeGreaterThan(0);
    expect(w.fake.violations).toEqual([]);

    // What the model was shown: search results, the site's URLs, the page's markdown, the extracted JSON.
    const agentCalls = w.agentRequests();
    expect(agentCalls.length).toBe(5);
    const toolText = (i: number) => agentCalls[i]!.messages.filter((m) => m.role === 'tool').map((m) => m.content).join('\n');
    expect(toolText(1)).toContain('https://coast.example/tides'); // search results (the fake Serper corpus)
    expect(toolText(2)).toContain('/products/gadget'); // map
    expect(toolText(3)).toContain('$19.99'); // scrape: the real page
    expect(toolText(4)).toContain('"price": 19.99'); // extract: the json format over the page
    expect(agentCalls[0]!.tools!.map((t) => t.function.name).sort()).toEqual(['extract', 'map', 'scrape', 'search']);

    // The trace, tokens and credits; the team paid exactly the run's credits.
    const runId = (await w.trawl.running.services.db.query("select id from jobs where kind = 'agent' order by created_at desc limit 1"))[0].id;
    const status = (await w.trawl.get(`/v2/agent/${runId}`, w.trawl.auth(key))).body;
    expect(status.trace.filter((s: any) => s.type === 'tool').map((s: any) => s.tool)).toEqual(['search', 'map', 'scrape', 'extract']);
    expect(status.trace.filter((s: any) => s.type === 'model').length).toBe(5);
    expect(status.stepsUsed).toBe(4);
    expect(status.stopReason).toBe('answered');
    expect(status.tokensUsed).toBeGreaterThan(0);
    // The extract page cost 5 (json format), the scrape 1, the map 1, the search 2 (one block of 10).
    const toolCredits = status.trace.filter((s: any) => s.type === 'tool').map((s: any) => s.creditsUsed);
    expect(toolCredits).toEqual([2, 1, 1, 5]);
    await until(async () => before - (await w.trawl.credits(team)) === status.creditsUsed, 20_000, 'the ledger to match creditsUsed');
    // The run is in the team's activity, with its credits.
    const activity = await w.trawl.get('/v2/team/activity', w.trawl.auth(key));
    expect(activity.body.data.find((a: any) => a.id === runId)).toMatchObject({ kind: 'agent', status: 'completed', creditsUsed: status.creditsUsed, auditMetadata: { username: 'ada' } });
    console.log(`[agent sample] creditsUsed=${status.creditsUsed} tokensUsed=${status.tokensUsed} steps=${status.stepsUsed} modelTurns=5`);
  });

  test('startAgent + getAgentStatus with a JSON schema (the fake answers from the schema)', async () => {
    const sdkClient = sdk();
    const started = await sdkClient.startAgent({
      prompt: 'List the products', urls: [w.shop.origin], effort: 'low',
      schema: { type: 'object', properties: { products: { type: 'array', items: { type: 'string' } } }, required: ['products'] },
    });
    expect(started.success).toBe(true);
    expect(typeof started.id).toBe('string');
    let status = await sdkClient.getAgentStatus(started.id);
    expect(['processing', 'completed']).toContain(status.status);
    await until(async () => (status = await sdkClient.getAgentStatus(started.id)).status !== 'processing', 60_000, 'the run to end');
    expect(status.status).toBe('completed');
    expect(Array.isArray((status.data as any).products)).toBe(true);
    expect(status.effort).toBe('low');
    expect(typeof status.expiresAt).toBe('string');
    expect(new Date(status.expiresAt).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  test('cancelAgent stops a run whose model call hangs; no model call follows the cancel', async () => {
    const sdkClient = sdk();
    w.turns.push({ toolCalls: [{ name: 'scrape', arguments: { url: w.shop.origin } }] }, { hang: true });
    const seen = w.agentRequests().length;
    const started = await sdkClient.startAgent({ prompt: 'Read the home page', urls: [w.shop.origin] });
    await until(() => w.agentRequests().length >= seen + 2, 30_000, 'the hanging model call');
    expect(await sdkClient.cancelAgent(started.id)).toBe(true);
    const afterCancel = w.agentRequests().length;
    const status = await sdkClient.getAgentStatus(started.id);
    expect(status.status as string).toBe('cancelled');
    // The worker notices within its poll interval; give it a generous bound, then check nothing more ran.
    const db = w.trawl.running.services.db;
    await until(async () => (await db.query('select count(*)::int as n from agent_steps where job_id = $1', [started.id]))[0].n >= 2, 20_000, 'the steps before the cancel');
    // The worker's handler has returned (the hanging model call was aborted), well within the bound.
    const ended = await w.trawl.running.services.queue.waitFor(started.id, 20_000).then(() => 'returned', (e) => String(e.code));
    expect(['returned', 'SCRAPE_JOB_CANCELLED']).toContain(ended);
    await Bun.sleep(1000);
    expect(w.agentRequests().length).toBe(afterCancel);
    expect((await sdkClient.getAgentStatus(started.id)).status as string).toBe('cancelled');
    // Cancelling again is fine; a finished run cannot be cancelled.
    expect(await sdkClient.cancelAgent(started.id)).toBe(true);
    w.agentDefault = undefined;
    const done = await sdkClient.agent({ prompt: 'Anything', pollInterval: 1, timeout: 60 });
    expect(done.status).toBe('completed');
    const id = (await db.query("select id from jobs where kind = 'agent' order by created_at desc limit 1"))[0].id;
    await expect(sdkClient.cancelAgent(id)).rejects.toThrow();
  });

  test('chat mode answers in message', async () => {
    w.turns.push({ content: 'The Widget costs $19.99.' });
    const res = await sdk().agent({ prompt: 'What does the Widget cost?', mode: 'chat', pollInterval: 1, timeout: 60 });
    expect(res.status).toBe('completed');
    expect(res.message).toBe('The Widget costs $19.99.');
    expect(res.data).toBeUndefined();
  });

  test('listAgents: the team\'s runs newest first, with their request and tags; another team sees none', async () => {
    const client = sdk();
    const started = await client.startAgent({ prompt: 'Newest run', urls: [w.shop.origin], model: 'spark-2', effort: 'high', integration: 'my-tool' });
    const list = await client.listAgents();
    expect(list.success).toBe(true);
    expect(list.agents![0]).toMatchObject({ id: started.id, integration: 'my-tool', origin: 'js-sdk@4.42.0', options: { prompt: 'Newest run', urls: [`${w.shop.origin}/`], model: 'spark-2', effort: 'high' } });
    expect(list.agents!.length).toBeGreaterThanOrEqual(1);
    const older = await client.listAgents({ before: new Date(list.agents![0]!.createdAt).getTime() });
    expect(older.agents!.some((a) => a.id === started.id)).toBe(false);
    const other = new Firecrawl({ apiKey: (await w.trawl.key()).key, apiUrl: w.trawl.base });
    expect((await other.listAgents()).agents).toEqual([]);
  });
});
