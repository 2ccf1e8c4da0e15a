/**
 * docs-search with a configured model (issue 21 item 2): the model writes the answer from the best
 * passages, which it is shown, and `usage` counts its tokens; the team's token usage records the call.
 * The model is the fake OpenAI-compatible server of test/fakes.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';

setDefaultTimeout(60_000);

let fake: FakeChat;
let trawl: AccountsTrawl;

beforeAll(async () => {
  fake = startFakeChat({ respond: () => ({ content: 'Set TRAWL_ALLOW_PRIVATE_TARGETS (README.md#configuration).' }) });
  trawl = await startAccountsTrawl({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-model' });
});
afterAll(async () => {
  await trawl?.stop();
  fake?.stop();
});

test('the model answers from the passages it is shown, and its tokens are counted', async () => {
  const { key } = await trawl.key({});
  const res = await trawl.post('/v2/support/docs-search', { question: 'How do I allow scraping private targets on my LAN?' }, trawl.auth(key));
  expect(res.status).toBe(200);
  expect(res.body.answer).toBe('Set TRAWL_ALLOW_PRIVATE_TARGETS (README.md#configuration).');
  expect(fake.calls).toBe(1);
  const sent = JSON.stringify(fake.requests.at(-1)!.body.messages);
  expect(sent).toContain('TRAWL_ALLOW_PRIVATE_TARGETS');
  expect(res.body.usage.totalTokens).toBeGreaterThan(0);
  expect(res.body.usage.totalTokens).toBe(res.body.usage.inputTokens + res.body.usage.outputTokens);
  expect(res.body.evidence.length).toBeGreaterThan(0);
});
