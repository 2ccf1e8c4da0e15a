/**
 * `LanguageModel.json` (core/llm/structured.ts) against the fake chat server: a valid answer in one
 * call; invalid JSON, a schema failure, a truncated answer or a tool call get one repair turn that
 * shows what failed; a second failure is MODEL_OUTPUT_INVALID (502) naming it; zod 4 (2020-12) and
 * draft-07 schemas validate; a schema that is not one is a 400; every completion is reported.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { z } from 'zod/v4';
import plugin from '../../plugins/llm/openai-compatible.ts';
import { completeJson } from '../../core/llm/structured.ts';
import { TrawlError } from '../../core/errors.ts';
import { silentLogger } from '../../core/log.ts';
import type { ModelClient, ModelCompletion } from '../../core/plugin.ts';
import { contractConfig } from '../contracts/suites/context.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';

let fake: FakeChat;
let client: ModelClient;
const seen: ModelCompletion[] = [];
const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['name', 'price'],
};
const ask = (s: Record<string, unknown> = schema) =>
  completeJson<any>(client, { messages: [{ role: 'user', content: 'Extract the product.' }], schema: s, schemaName: 'product', purpose: 'test:json' }, (c) => void seen.push(c));

async function failure(p: Promise<unknown>): Promise<TrawlError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    return e as TrawlError;
  }
  throw new Error('expected a failure');
}

beforeAll(() => {
  fake = startFakeChat();
  client = plugin.open(contractConfig({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'm' }), silentLogger);
});
afterAll(() => fake.stop());

describe('json answers', () => {
  test('a valid answer: one call, its usage summed and reported', async () => {
    fake.reset();
    seen.length = 0;
    fake.script({ json: { name: 'Kettle', price: 25.5, tags: ['steel'] } });
    const { value, usage } = await ask();
    expect(value).toEqual({ name: 'Kettle', price: 25.5, tags: ['steel'] });
    expect(fake.calls).toBe(1);
    expect(seen.length).toBe(1);
    expect(usage).toEqual({ promptTokens: fake.promptTokens, completionTokens: fake.completionTokens });
    expect(fake.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'product', schema } });
  });

  test('prose and code fences around the JSON are tolerated', async () => {
    fake.reset();
    fake.script({ content: 'Here it is:\n```json\n{"name": "Kettle", "price": 3}\n```' });
    expect((await ask()).value).toEqual({ name: 'Kettle', price: 3 });
    expect(fake.calls).toBe(1);
  });

  test('invalid JSON, then a valid answer: one repair turn showing the problem', async () => {
    fake.reset();
    seen.length = 0;
    fake.script({ content: '{name: Kettle' }, { json: { name: 'Kettle', price: 1 } });
    const { value, usage } = await ask();
    expect(value).toEqual({ name: 'Kettle', price: 1 });
    expect(fake.calls).toBe(2);
    expect(seen.length).toBe(2);
    expect(usage.promptTokens).toBe(fake.promptTokens);
    const repair = fake.requests[1]!.body.messages;
    expect(repair.at(-2)).toEqual({ role: 'assistant', content: '{name: Kettle' });
    expect(repair.at(-1).content).toContain('not JSON');
    expect(fake.violations).toEqual([]);
  });

  test('an answer failing the schema twice: MODEL_OUTPUT_INVALID 502 naming the fields', async () => {
    fake.reset();
    fake.script({ json: { name: 'Kettle', price: 'cheap' } }, { json: { price: 'still cheap' } });
    const e = await failure(ask());
    expect([e.code, e.status]).toEqual(['MODEL_OUTPUT_INVALID', 502]);
    expect(e.message).toContain("must have required property 'name'");
    expect(e.message).toContain('test:json');
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('/price: must be number');
    expect(fake.calls).toBe(2);
  });

  test('a truncated answer is repaired with a request to be shorter; twice is a 502 saying it was cut off', async () => {
    fake.reset();
    fake.script({ truncated: '{"name": "Ke' }, { json: { name: 'Kettle', price: 2 } });
    expect((await ask()).value).toEqual({ name: 'Kettle', price: 2 });
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('shorter');
    fake.script({ truncated: '{"name": "Ke' }, { truncated: '{"name": "Ke' });
    const e = await failure(ask());
    expect(e.status).toBe(502);
    expect(e.message).toContain('cut off');
  });

  test('a tool call instead of JSON is repaired', async () => {
    fake.reset();
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }, { json: { name: 'K', price: 0 } });
    expect((await ask()).value).toEqual({ name: 'K', price: 0 });
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('tool call');
  });

  test('zod 4 schemas (draft 2020-12, $defs) validate; a schema that is not one is a 400', async () => {
    const Item = z.object({ sku: z.string() });
    const zodSchema = z.toJSONSchema(z.object({ items: z.array(Item), total: z.number().int() })) as Record<string, unknown>;
    expect(String(zodSchema.$schema)).toContain('2020-12');
    fake.reset();
    fake.script({ json: { items: [{ sku: 1 }], total: 1 } }, { json: { items: [{ sku: 2 }], total: 1 } });
    const e = await failure(ask(zodSchema));
    expect(e.status).toBe(502);
    expect(e.message).toContain('/items/0/sku: must be string');
    fake.script({ json: { items: [{ sku: 'a' }], total: 1 } });
    expect((await ask(zodSchema)).value).toEqual({ items: [{ sku: 'a' }], total: 1 });
    const before = fake.requests.length;
    const bad = await failure(ask({ type: 'object', properties: { a: { type: 'no-such-type' } } }));
    expect([bad.code, bad.status]).toEqual(['BAD_REQUEST', 400]);
    expect(fake.requests.length).toBe(before); // refused before any model call
  });
});
