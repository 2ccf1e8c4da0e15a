/**
 * Issue 15 item 6: a crawl prompt spends the operator's model key, so the caller is authenticated,
 * its key restrictions checked and its credits counted before the model is asked; a prompt over
 * 10,000 characters is a 400 naming the field. The fake OpenAI server counts the calls.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';

setDefaultTimeout(60_000);

let chat: FakeChat;
let trawl: AccountsTrawl;
const url = 'http://127.0.0.1:9/docs';
const prompt = 'Crawl only the blog posts of 2024';

beforeAll(async () => {
  chat = startFakeChat();
  trawl = await startAccountsTrawl({ OPENAI_BASE_URL: chat.baseUrl, OPENAI_API_KEY: 'sk-operator' });
});

afterAll(async () => {
  await trawl?.stop();
  chat?.stop();
});

describe('crawl prompt', () => {
  test('no key or a bad key: 401 and the model is never called', async () => {
    expect((await trawl.post('/v2/crawl', { url, prompt })).status).toBe(401);
    expect((await trawl.post('/v1/crawl', { url, prompt })).status).toBe(401);
    expect((await trawl.post('/v2/crawl', { url, prompt }, trawl.auth('fc-00000000000000000000000000000000'))).status).toBe(401);
    expect(chat.requests.length).toBe(0);
  });

  test('a key without the crawl group (403) or a team without credits (402): the model is never called', async () => {
    const scrapeOnly = await trawl.key({ endpoints: ['scrape'] });
    expect((await trawl.post('/v2/crawl', { url, prompt }, trawl.auth(scrapeOnly.key))).status).toBe(403);
    const poor = await trawl.key({ credits: 0 });
    const res = await trawl.post('/v2/crawl', { url, prompt, limit: 5 }, trawl.auth(poor.key));
    expect(res.status).toBe(402);
    expect(chat.requests.length).toBe(0);
  });

  test('a prompt over 10,000 characters is a 400 naming prompt', async () => {
    const { key } = await trawl.key();
    const res = await trawl.post('/v2/crawl', { url, prompt: 'x'.repeat(10_001) }, trawl.auth(key));
    expect(res.status).toBe(400);
    expect(res.text).toContain('prompt');
    expect(chat.requests.length).toBe(0);
  });

  test('an admitted caller reaches the model once', async () => {
    const { key } = await trawl.key();
    await trawl.post('/v2/crawl', { url, prompt, limit: 5 }, trawl.auth(key));
    expect(chat.requests.length).toBe(1);
  });
});
