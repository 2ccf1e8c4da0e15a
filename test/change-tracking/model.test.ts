/**
 * Change tracking's json mode with a configured model (the fake OpenAI-compatible server of
 * test/fakes/openai-chat.ts, which answers from the page text it is sent): the json format's model
 * answer is compared field by field, only the changed field is reported, tokens are spent per scrape,
 * and the document says the model answered (no no-model warning).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';

setDefaultTimeout(120_000);

const state = { price: '10' };
let site: FixtureSite;
let chat: FakeChat;
let trawl: TestTrawl;

beforeAll(async () => {
  site = serveFixtures({
    '/lamp': () => new Response(`<html><body><main><h1>Desk lamp</h1><p>Colour: Green</p><p>Price: ${state.price} EUR</p></main></body></html>`, { headers: { 'content-type': 'text/html' } }),
  });
  // The fake "reads" the page it is sent: the price in its answer is the one on the page.
  chat = startFakeChat({
    respond: (body) => {
      const text = body.messages.map((m) => m.content ?? '').join('\n');
      return { json: { name: 'Desk lamp', colour: 'Green', price: Number(/Price: (\d+)/.exec(text)?.[1] ?? 0) } };
    },
  });
  trawl = await startTrawl({ OPENAI_BASE_URL: chat.baseUrl, OPENAI_API_KEY: 'test-key', MODEL_NAME: 'fake-model' });
});

afterAll(async () => {
  await trawl?.stop();
  chat?.stop();
  site?.stop();
});

test('json mode with a model: the changed field, from the model\'s answers', async () => {
  const fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
  const schema = { type: 'object', properties: { name: { type: 'string' }, colour: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'colour', 'price'] };
  const format = { type: 'changeTracking' as const, modes: ['json' as const], schema, tag: 'model' };
  const first: any = await fc.scrape(site.url('/lamp'), { formats: ['markdown', format] });
  expect(first.changeTracking.changeStatus).toBe('new');
  expect(first.warning ?? '').not.toMatch(/No language model/);
  const callsAfterFirst = chat.calls;
  expect(callsAfterFirst).toBeGreaterThan(0);

  const same: any = await fc.scrape(site.url('/lamp'), { formats: ['markdown', format] });
  expect(same.changeTracking.changeStatus).toBe('same');
  expect(same.changeTracking.json).toBeUndefined();

  state.price = '14';
  const changed: any = await fc.scrape(site.url('/lamp'), { formats: ['markdown', format] });
  expect(changed.changeTracking.changeStatus).toBe('changed');
  expect(changed.changeTracking.json).toEqual({ price: { previous: 10, current: 14 } });
  expect(chat.calls).toBeGreaterThan(callsAfterFirst);
  expect(chat.violations).toEqual([]);
  const sent = chat.requests.at(-1)!.body.messages.map((m: { content: string | null }) => m.content ?? '').join('\n');
  expect(sent).toContain('Price: 14 EUR');
});
