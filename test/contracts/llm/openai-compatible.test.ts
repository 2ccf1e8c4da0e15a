/**
 * Contract cases of the `openai-compatible` model provider against the fake chat server
 * (test/fakes/openai-chat.ts): retries on 429 (Retry-After honoured, a longer ask refused at once) and
 * 5xx, a timeout as 504, refusals as 502 naming the setting to check, structured output stepping down
 * on a 400, estimated usage, a truncated answer's finish reason, and the per-process concurrency limit.
 * Every request the provider sent passed the fake's checks.
 */
import { expect } from 'bun:test';
import plugin from '../../../plugins/llm/openai-compatible.ts';
import { testModelProvider } from '../suites/model-provider.ts';
import { contractConfig } from '../suites/context.ts';
import { startFakeChat, type FakeChat } from '../../fakes/openai-chat.ts';
import { silentLogger } from '../../../core/log.ts';
import { TrawlError } from '../../../core/errors.ts';
import type { ModelClient } from '../../../core/plugin.ts';

let fake: FakeChat;
const env = (extra: Record<string, string> = {}) =>
  contractConfig({ OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk-test', MODEL_NAME: 'big-model', TRAWL_MODEL_SMALL: 'small-model', TRAWL_MODEL_CONTEXT_TOKENS: '16000', ...extra });
const ask = (client: ModelClient, extra: Record<string, unknown> = {}) => client.complete({ messages: [{ role: 'user', content: 'Hello' }], purpose: 'contract', ...extra });

async function failure(p: Promise<unknown>): Promise<TrawlError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    return e as TrawlError;
  }
  throw new Error('expected a failure');
}

testModelProvider(plugin, async () => {
  fake = startFakeChat({ apiKey: 'sk-test' });
  return { config: env(), modelsSeen: () => fake.requests.map((r) => r.body.model), stop: () => fake.stop() };
}, [
  {
    name: 'a 429 with Retry-After is retried after the wait; 5xx with backoff',
    async run(client) {
      fake.reset();
      fake.script({ status: 429, retryAfter: '1' }, { status: 503 }, { content: 'fine' });
      const started = Date.now();
      const c = await ask(client);
      expect(c.message.content).toBe('fine');
      expect(fake.requests.length).toBe(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900); // the Retry-After second was waited
      expect(fake.violations).toEqual([]);
    },
  },
  {
    name: 'retries run out: 502 naming the status, retryable',
    async run(client) {
      fake.reset();
      fake.script({ status: 500 }, { status: 500 }, { status: 500 }, { content: 'too late' });
      const e = await failure(ask(client));
      expect([e.code, e.status, e.retryable]).toEqual(['UPSTREAM_ERROR', 502, true]);
      expect(e.message).toContain('HTTP 500');
      expect(fake.requests.length).toBe(3); // one try and TRAWL_MODEL_MAX_RETRIES (2) retries
    },
  },
  {
    name: 'a Retry-After beyond TRAWL_MODEL_RETRY_MAX_WAIT_MS fails at once with 502',
    async run(client) {
      fake.reset();
      fake.script({ status: 429, retryAfter: '3600' });
      const e = await failure(ask(client));
      expect(e.status).toBe(502);
      expect(e.message).toContain('TRAWL_MODEL_RETRY_MAX_WAIT_MS');
      expect(fake.requests.length).toBe(1);
    },
  },
  {
    name: 'a server that does not answer in time: 504, not retried',
    async run() {
      const client = plugin.open(env({ TRAWL_MODEL_TIMEOUT_MS: '1000' }), silentLogger);
      fake.reset();
      fake.script({ hang: true });
      const e = await failure(ask(client));
      expect([e.code, e.status]).toEqual(['GATEWAY_TIMEOUT', 504]);
      expect(e.message).toContain('TRAWL_MODEL_TIMEOUT_MS');
      expect(fake.requests.length).toBe(1);
    },
  },
  {
    name: "the caller's signal stops a call: 504",
    async run(client) {
      fake.reset();
      fake.script({ hang: true });
      const e = await failure(ask(client, { signal: AbortSignal.timeout(300) }));
      expect(e.status).toBe(504);
    },
  },
  {
    name: 'a bad key or an unknown model: 502 naming what to check, not retried',
    async run() {
      fake.reset();
      const badKey = await failure(ask(plugin.open(env({ OPENAI_API_KEY: 'sk-wrong' }), silentLogger)));
      expect([badKey.status, badKey.retryable]).toEqual([502, false]);
      expect(badKey.message).toContain('OPENAI_API_KEY');
      const strict = startFakeChat({ models: ['known'] });
      try {
        const unknown = await failure(ask(plugin.open(contractConfig({ OPENAI_BASE_URL: strict.baseUrl, MODEL_NAME: 'nope' }), silentLogger)));
        expect(unknown.message).toContain('MODEL_NAME');
        expect(strict.requests.length).toBe(1);
      } finally {
        strict.stop();
      }
    },
  },
  {
    name: 'a body that is not a completion: 502',
    async run(client) {
      fake.reset();
      fake.script({ raw: '<html>proxy error</html>' });
      const e = await failure(ask(client));
      expect(e.status).toBe(502);
    },
  },
  {
    name: 'structured output steps down on a 400: json_schema, then json_object with the schema shown, remembered',
    async run() {
      const old = startFakeChat({ refuse: ['json_schema'] });
      try {
        const client = plugin.open(contractConfig({ OPENAI_BASE_URL: old.baseUrl }), silentLogger);
        const output = { type: 'json' as const, schema: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, name: 'a b' };
        for (let i = 0; i < 2; i++) expect(JSON.parse((await ask(client, { output })).message.content!)).toEqual({ a: 1 });
        expect(old.requests.map((r) => r.body.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
        expect(old.requests[1]!.body.messages[0].content).toContain('"required":["a"]');
        expect(old.violations).toEqual([]);
        // Fixed means: no step down.
        const fixed = plugin.open(contractConfig({ OPENAI_BASE_URL: old.baseUrl, TRAWL_MODEL_STRUCTURED_OUTPUT: 'json_schema' }), silentLogger);
        expect((await failure(ask(fixed, { output }))).status).toBe(502);
      } finally {
        old.stop();
      }
    },
  },
  {
    name: 'no usage from the server: tokens estimated; a truncated answer says "length"',
    async run(client) {
      fake.reset();
      fake.script({ noUsage: 'x'.repeat(400) }, { truncated: '{"a": [1, 2' });
      const a = await ask(client);
      expect(a.estimated).toBe(true);
      expect(a.usage.completionTokens).toBeGreaterThanOrEqual(100);
      const b = await ask(client, { maxTokens: 5 });
      expect(b.finishReason).toBe('length');
      expect(fake.requests.at(-1)!.body.max_tokens).toBe(5);
    },
  },
  {
    name: 'calls beyond TRAWL_MODEL_CONCURRENCY wait for a slot',
    async run() {
      const client = plugin.open(env({ TRAWL_MODEL_CONCURRENCY: '2' }), silentLogger);
      fake.reset();
      for (let i = 0; i < 5; i++) fake.script({ after: 150, answer: { content: `answer ${i}` } });
      const answers = await Promise.all(Array.from({ length: 5 }, () => ask(client)));
      expect(answers.length).toBe(5);
      expect(fake.maxInFlight).toBeLessThanOrEqual(2);
      expect(fake.calls).toBe(5);
    },
  },
]);
