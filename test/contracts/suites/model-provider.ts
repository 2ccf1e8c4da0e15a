/**
 * The model provider contract (plugin kind `llm`, issue 18): `testModelProvider(plugin, setup, cases)`
 * checks what core/llm relies on, against the provider's server (a fake on 127.0.0.1) given by
 * `setup`: not configured by an empty config; a client named after the configured model with its
 * context size; a text answer with usage and a finish reason; tool calls with ids, names and JSON
 * arguments, answered by tool messages; a JSON answer for an output format; the small model for
 * `small` requests. Then the plugin's own cases.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ModelClient, ModelProviderPlugin } from '../../../core/plugin.ts';
import type { ResolvedConfig } from '../../../core/config.ts';
import { silentLogger } from '../../../core/log.ts';
import { contractConfig } from './context.ts';

/** What a provider's test environment gives: the config pointing at its server. */
export interface ModelProviderEnv {
  config: ResolvedConfig;
  /** Model names the server saw, in order (to check `small`). */
  modelsSeen(): string[];
  stop(): Promise<void> | void;
}

export interface ModelProviderCase {
  name: string;
  run(client: ModelClient, env: ModelProviderEnv): Promise<void>;
}

const TOOL = {
  type: 'function' as const,
  function: { name: 'click', description: 'Click an element.', parameters: { type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'] } },
};

export function testModelProvider(plugin: ModelProviderPlugin, setup: () => Promise<ModelProviderEnv>, cases: ModelProviderCase[] = []): void {
  describe(`model provider "${plugin.name}"`, () => {
    let env: ModelProviderEnv;
    let client: ModelClient;
    beforeAll(async () => {
      env = await setup();
      client = plugin.open(env.config, silentLogger);
    }, 60_000);
    afterAll(async () => {
      await env?.stop();
    });

    test('declarations: configured only by a model configuration; the client names its model', () => {
      expect(plugin.kind).toBe('llm');
      expect(plugin.configured(contractConfig())).toBe(false);
      expect(plugin.configured(env.config)).toBe(true);
      expect(client.name).toBe(env.config.llm!.model);
      expect(client.smallName).toBe(env.config.llm!.smallModel);
      expect(client.contextTokens).toBe(env.config.llm!.contextTokens);
    });

    test('a text answer with usage and a finish reason', async () => {
      const c = await client.complete({ messages: [{ role: 'user', content: 'Say hello.' }], purpose: 'contract' });
      expect(c.message.role).toBe('assistant');
      expect(typeof c.message.content).toBe('string');
      expect(c.usage.promptTokens).toBeGreaterThan(0);
      expect(c.usage.completionTokens).toBeGreaterThanOrEqual(0);
      expect(typeof c.finishReason).toBe('string');
      expect(c.model).toBe(client.name);
    });

    test('tool calls carry ids, names and JSON arguments, and tool messages answer them', async () => {
      const messages = [{ role: 'user' as const, content: 'Please click #go' }];
      const first = await client.complete({ messages, tools: [TOOL], purpose: 'contract' });
      const calls = first.message.tool_calls ?? [];
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        expect(typeof call.id).toBe('string');
        expect(call.function.name).toBe('click');
        expect(() => JSON.parse(call.function.arguments)).not.toThrow();
      }
      const tools = calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: 'done' }));
      const second = await client.complete({ messages: [...messages, first.message, ...tools], tools: [TOOL], purpose: 'contract' });
      expect(typeof second.message.content).toBe('string');
    });

    test('an output format gets a JSON answer', async () => {
      const schema = { type: 'object', properties: { title: { type: 'string' }, count: { type: 'integer' } }, required: ['title', 'count'] };
      const c = await client.complete({ messages: [{ role: 'user', content: 'Describe the page.' }], purpose: 'contract', output: { type: 'json', schema, name: 'page' } });
      const value = JSON.parse(c.message.content ?? '');
      expect(typeof value.title).toBe('string');
      expect(Number.isInteger(value.count)).toBe(true);
    });

    test('small requests go to the small model', async () => {
      const c = await client.complete({ messages: [{ role: 'user', content: 'Hi.' }], purpose: 'contract', small: true });
      expect(c.model).toBe(env.config.llm!.smallModel);
      expect(env.modelsSeen().at(-1)).toBe(env.config.llm!.smallModel);
    });

    for (const c of cases) test(c.name, () => c.run(client, env), 60_000);
  });
}
