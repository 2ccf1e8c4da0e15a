/**
 * Agent budgets and events (issue 19): a model scripted to call tools forever stops at `maxCredits`
 * (status failed, stopReason max_credits, never more credits than the budget, the team charged what
 * the run reports) and at the step budget of `effort` (stopReason max_steps); webhooks
 * `agent.started|action|failed|completed|cancelled` arrive signed with the team's secret;
 * `strictConstrainToURLs` takes the search tool away and refuses URLs outside the run's.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startAgentWorld, until, waitForEnd, type AgentWorld } from './helpers.ts';
import { verifySignature } from '../../core/webhooks/sign.ts';
import { teamWebhookSecret } from '../../core/webhooks/team-secret.ts';

setDefaultTimeout(120_000);

let w: AgentWorld;

beforeAll(async () => {
  w = await startAgentWorld();
});
afterAll(async () => {
  await w?.stop();
});

const scrapeForever = () => ({ toolCalls: [{ name: 'scrape', arguments: { url: `${w.shop.origin}/products/widget` } }] });

describe('agent budgets', () => {
  test('stops at maxCredits with status, reason and the credits it used', async () => {
    const { key, team } = await w.trawl.key({ credits: 1000 });
    w.agentDefault = scrapeForever;
    const before = await w.trawl.credits(team);
    const res = await w.trawl.post('/v2/agent', { prompt: 'Keep reading the widget page', maxCredits: 9, webhook: { url: w.hooks.url('/hook'), metadata: { run: 'credits' } } }, w.trawl.auth(key));
    expect(res.status).toBe(200);
    const end = await waitForEnd(w.trawl, res.body.id, key);
    w.agentDefault = undefined;
    expect(end.status).toBe('failed');
    expect(end.stopReason).toBe('max_credits');
    expect(end.error).toContain('maxCredits 9');
    expect(end.creditsUsed).toBeLessThanOrEqual(9);
    expect(end.creditsUsed).toBeGreaterThanOrEqual(7);
    expect(end.stepsUsed).toBeGreaterThan(1);
    expect(end.trace.reduce((s: number, x: any) => s + x.creditsUsed, 0)).toBe(end.creditsUsed);
    await until(async () => before - (await w.trawl.credits(team)) === end.creditsUsed, 20_000, 'the ledger to match creditsUsed');

    // Webhooks: started, one action per tool call, failed; signed with the team's secret.
    const secret = (await teamWebhookSecret(w.trawl.running.services.db, team))!;
    await until(() => w.received.some((r) => r.body.id === res.body.id && r.body.type === 'agent.failed'), 30_000, 'agent.failed');
    const mine = w.received.filter((r) => r.body.id === res.body.id);
    expect(mine[0]!.body.type).toBe('agent.started');
    expect(mine.filter((r) => r.body.type === 'agent.action').length).toBe(end.stepsUsed);
    expect(mine.at(-1)!.body.type).toBe('agent.failed');
    expect(mine.at(-1)!.body.error).toContain('maxCredits');
    expect(mine.find((r) => r.body.type === 'agent.action')!.body.data[0]).toMatchObject({ step: 2, tool: 'scrape', ok: true, creditsUsed: 1 });
    expect(mine.every((r) => r.body.metadata.run === 'credits' && verifySignature(r.raw, r.signature, secret))).toBe(true);
  });

  test('stops when the team runs out of credits (PAYMENT_REQUIRED), whatever maxCredits allows', async () => {
    const { key, team } = await w.trawl.key({ credits: 4 });
    w.agentDefault = scrapeForever;
    const res = await w.trawl.post('/v2/agent', { prompt: 'Keep reading' }, w.trawl.auth(key));
    const end = await waitForEnd(w.trawl, res.body.id, key);
    w.agentDefault = undefined;
    expect(end.status).toBe('failed');
    expect(end.stopReason).toBe('no_credits');
    expect(end.error).toContain('no credits left');
    expect(end.creditsUsed).toBeLessThanOrEqual(6);
    expect(await w.trawl.credits(team)).toBeGreaterThanOrEqual(-2);
  });

  test('stops at the step budget of effort low (8 tool calls)', async () => {
    const { key } = await w.trawl.key({ credits: 1000 });
    w.agentDefault = scrapeForever;
    const res = await w.trawl.post('/v2/agent', { prompt: 'Keep reading', effort: 'low' }, w.trawl.auth(key));
    const end = await waitForEnd(w.trawl, res.body.id, key);
    w.agentDefault = undefined;
    expect(end.status).toBe('failed');
    expect(end.stopReason).toBe('max_steps');
    expect(end.stepsUsed).toBe(8);
    expect(end.maxSteps).toBe(8);
    expect(end.error).toContain('step budget');
    expect(end.effort).toBe('low');
    // effort high allows more: its budget is shown.
    const high = await w.trawl.post('/v2/agent', { prompt: 'Answer', effort: 'high' }, w.trawl.auth(key));
    expect((await waitForEnd(w.trawl, high.body.id, key)).maxSteps).toBe(40);
  });

  test('completed and cancelled webhooks; events filter', async () => {
    const { key } = await w.trawl.key({ credits: 1000 });
    const ok = await w.trawl.post('/v2/agent', { prompt: 'Answer now', webhook: { url: w.hooks.url('/hook'), events: ['completed'] } }, w.trawl.auth(key));
    await waitForEnd(w.trawl, ok.body.id, key);
    await until(() => w.received.some((r) => r.body.id === ok.body.id), 30_000, 'agent.completed');
    await Bun.sleep(300);
    const okEvents = w.received.filter((r) => r.body.id === ok.body.id);
    expect(okEvents.map((r) => r.body.type)).toEqual(['agent.completed']);
    expect(okEvents[0]!.body.data[0].creditsUsed).toBeGreaterThan(0);

    w.turns.push({ hang: true });
    const c = await w.trawl.post('/v2/agent', { prompt: 'Hang', webhook: w.hooks.url('/hook') }, w.trawl.auth(key));
    await until(() => w.received.some((r) => r.body.id === c.body.id && r.body.type === 'agent.started'), 30_000, 'agent.started');
    const del = await fetch(`${w.trawl.base}/v2/agent/${c.body.id}`, { method: 'DELETE', headers: w.trawl.auth(key) });
    expect(del.status).toBe(200);
    await until(() => w.received.some((r) => r.body.id === c.body.id && r.body.type === 'agent.cancelled'), 30_000, 'agent.cancelled');
  });

  test('a model server that keeps failing fails the run with its error', async () => {
    const { key } = await w.trawl.key({ credits: 100 });
    w.agentDefault = () => ({ status: 500, message: 'model server down' });
    const res = await w.trawl.post('/v2/agent', { prompt: 'Anything', webhook: w.hooks.url('/hook') }, w.trawl.auth(key));
    const end = await waitForEnd(w.trawl, res.body.id, key);
    w.agentDefault = undefined;
    expect(end.status).toBe('failed');
    expect(end.stopReason).toBe('error');
    expect(end.error).toContain('HTTP 500');
    expect(end.creditsUsed).toBe(0);
    await until(() => w.received.some((r) => r.body.id === res.body.id && r.body.type === 'agent.failed'), 30_000, 'agent.failed');
  });

  test('strictConstrainToURLs: no search tool, and a URL outside the run is refused', async () => {
    const { key } = await w.trawl.key({ credits: 1000 });
    const seen = w.agentRequests().length;
    w.turns.push({ toolCalls: [{ name: 'scrape', arguments: { url: `${w.hooks.origin}/hook` } }] }, { json: { ok: true } });
    const res = await w.trawl.post('/v2/agent', { prompt: 'Only the widget', urls: [`${w.shop.origin}/products/widget`], strictConstrainToURLs: true }, w.trawl.auth(key));
    const end = await waitForEnd(w.trawl, res.body.id, key);
    expect(end.status).toBe('completed');
    const calls = w.agentRequests().slice(seen);
    expect(calls[0]!.tools!.map((t) => t.function.name).sort()).toEqual(['extract', 'map', 'scrape']);
    expect(calls[1]!.messages.find((m) => m.role === 'tool')!.content).toContain('outside the URLs');
    expect(end.trace.find((s: any) => s.type === 'tool')).toMatchObject({ tool: 'scrape', ok: false, creditsUsed: 0 });
  });
});
