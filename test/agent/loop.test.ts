/**
 * The agent loop on its own (core/agent/loop.ts), with a scripted LanguageModel and stub tools: the
 * repair turn for an answer that fails the schema (and MODEL_OUTPUT_INVALID after it), unknown tools
 * and bad arguments told to the model, budgets checked before the step that would pass them, a
 * cancel, a run resumed with what an earlier attempt spent, and old tool answers shortened to fit the
 * model's context while the newest ones are kept.
 */
import { describe, expect, test } from 'bun:test';
import type { LanguageModel, ModelMessage, ModelRequest } from '../../core/plugin.ts';
import { runAgentLoop, turnCredits, type LoopDeps, type LoopStep } from '../../core/agent/loop.ts';
import type { AgentTool } from '../../core/agent/tools.ts';
import { resolveAgentRequest } from '../../core/agent/options.ts';
import { createLogger } from '../../core/log.ts';

type Turn = { content?: string; calls?: { name: string; args: unknown }[]; tokens?: number };

function scriptedModel(turns: Turn[], contextTokens = 8192): LanguageModel & { seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  let n = 0;
  return {
    name: 'stub', contextTokens, seen,
    async chat(request) {
      seen.push({ ...request, messages: request.messages.map((m) => ({ ...m })) });
      const t = turns.shift() ?? { content: '{}' };
      const message: ModelMessage = t.calls
        ? { role: 'assistant', content: null, tool_calls: t.calls.map((c, i) => ({ id: `c${++n}_${i}`, type: 'function', function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) } })) }
        : { role: 'assistant', content: t.content ?? '' };
      return { message, usage: { promptTokens: t.tokens ?? 100, completionTokens: 10 } };
    },
    json: async () => { throw new Error('not used'); },
  };
}

const echo = (name: string, credits = 1, text = (args: any) => `ran ${name} ${JSON.stringify(args)}`): AgentTool => ({
  def: { type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } },
  minCredits: () => credits,
  run: async (args) => ({ text: text(args), summary: 'ok', credits, ok: true }),
});

function deps(model: LanguageModel, body: Record<string, unknown>, extra: Partial<LoopDeps> = {}): LoopDeps & { steps: LoopStep[] } {
  const steps: LoopStep[] = [];
  const signal = new AbortController().signal;
  const tools = new Map([['scrape', echo('scrape')], ['map', echo('map')]]);
  return {
    model, request: resolveAgentRequest({ prompt: 'find it', ...body }), tools, signal, spent: { toolCalls: 0, credits: 0 }, steps,
    toolContext: { services: {} as never, jobId: 'j', teamId: 't', request: resolveAgentRequest({ prompt: 'find it', ...body }), signal, log: createLogger('silent') },
    onStep: async (s) => steps.push(s),
    ...extra,
  };
}

const schema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };

describe('agent loop', () => {
  test('an answer failing the schema gets one repair turn', async () => {
    const model = scriptedModel([{ content: '{"price":"cheap"}' }, { content: '{"price":3}' }]);
    const out = await runAgentLoop(deps(model, { schema }));
    expect(out).toMatchObject({ reason: 'answered', data: { price: 3 }, toolCalls: 0 });
    expect(model.seen[1]!.messages.at(-1)!.content).toContain('/price: must be number');
    const again = scriptedModel([{ content: 'no idea' }, { content: 'still no idea' }]);
    await expect(runAgentLoop(deps(again, { schema }))).rejects.toMatchObject({ code: 'MODEL_OUTPUT_INVALID' });
  });

  test('without a schema, text that is not JSON becomes { answer }', async () => {
    const out = await runAgentLoop(deps(scriptedModel([{ content: 'It is 3 euros.' }]), {}));
    expect(out.data).toEqual({ answer: 'It is 3 euros.' });
  });

  test('unknown tools, bad arguments and a sixth call in one turn are told to the model', async () => {
    const calls = [{ name: 'teleport', args: {} }, { name: 'scrape', args: '{not json' }, ...Array.from({ length: 4 }, () => ({ name: 'map', args: { url: 'x' } }))];
    const model = scriptedModel([{ calls }, { content: '{"price":1}' }]);
    const d = deps(model, { schema });
    const out = await runAgentLoop(d);
    expect(out.reason).toBe('answered');
    const replies = model.seen[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(replies[0]).toContain('there is no tool "teleport"');
    expect(replies[1]).toBe('ran scrape {}');
    expect(replies[5]).toContain('at most 5 tool calls are run per turn');
    expect(out.toolCalls).toBe(6);
  });

  test('budgets are checked before the step that would pass them; a resumed run counts what was spent', async () => {
    const forever = Array.from({ length: 50 }, () => ({ calls: [{ name: 'scrape', args: {} }] }));
    const byCredits = await runAgentLoop(deps(scriptedModel([...forever]), { maxCredits: 7 }));
    expect(byCredits.reason).toBe('max_credits');
    expect(byCredits.credits).toBeLessThanOrEqual(7);
    const bySteps = await runAgentLoop(deps(scriptedModel([...forever]), { effort: 'low' }));
    expect(bySteps).toMatchObject({ reason: 'max_steps', toolCalls: 8 });
    const resumed = await runAgentLoop(deps(scriptedModel([...forever]), { effort: 'low' }, { spent: { toolCalls: 6, credits: 10 } }));
    expect(resumed).toMatchObject({ reason: 'max_steps', toolCalls: 8 });
    const broke = await runAgentLoop(deps(scriptedModel([...forever]), {}, { balance: async () => 0 }));
    expect(broke.reason).toBe('no_credits');
    expect(turnCredits(0)).toBe(1);
    expect(turnCredits(2500)).toBe(3);
  });

  test('a cancel stops the loop before the next step', async () => {
    const controller = new AbortController();
    const model = scriptedModel(Array.from({ length: 50 }, () => ({ calls: [{ name: 'scrape', args: {} }] })));
    const d = deps(model, {}, { signal: controller.signal });
    d.tools.set('scrape', { ...echo('scrape'), run: async () => { controller.abort(new Error('cancelled')); return { text: 'x', summary: 'x', credits: 1, ok: true }; } });
    await expect(runAgentLoop(d)).rejects.toThrow('cancelled');
    expect(model.seen.length).toBe(1);
  });

  test('old tool answers are shortened to fit the context; the newest are kept', async () => {
    const big = 'x'.repeat(3000);
    const model = scriptedModel([
      { calls: [{ name: 'scrape', args: {} }] }, { calls: [{ name: 'scrape', args: {} }] }, { calls: [{ name: 'scrape', args: {} }] }, { content: '{}' },
    ], 2000);
    const d = deps(model, {});
    d.tools.set('scrape', echo('scrape', 1, () => big));
    await runAgentLoop(d);
    const last = model.seen.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => m.content!);
    expect(last[0]).toContain('[shortened');
    expect(last.at(-1)!.length).toBe(2000); // the newest answer, cut to a third of the context (2000 tokens × 3 chars)
  });
});
