/**
 * The model formats through the official SDK (`firecrawl@4.42.0`, unchanged) against a real Trawl
 * with the fake OpenAI-compatible model (test/fakes/openai-chat.ts) configured (issue 18 "done
 * when"): json with a JSON schema and with a zod schema (the schema reaches the model as
 * `response_format`), summary, question and highlights, crawl and search with a json format, all
 * answered by the model (`metadata.modelUsed: true`, no warning). Then the failure paths over HTTP:
 * invalid JSON, JSON failing the schema, a truncated answer (each repaired once, or a 502 naming
 * what failed), 429 (retried, or a 502 saying the server is busy), a model that does not answer
 * (504); and keyless or bad-key requests with a prompt (401, no model call). Never a 500.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { z } from 'zod';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import type { ChatBody } from '../fakes/openai-chat-check.ts';
import { KNOWN_PAGES } from './fixtures.ts';

setDefaultTimeout(120_000);

let site: FixtureSite;
let trawl: TestTrawl;
let fake: FakeChat;
let fc: Firecrawl;
const [product, kettle, article] = KNOWN_PAGES;

/** Plain chat answers by the format's instructions; JSON requests fall through to the script or the default. */
function respond(body: ChatBody) {
  const system = body.messages[0]?.content ?? '';
  const user = body.messages.at(-1)?.content ?? '';
  if (system.startsWith('Summarize')) return { content: 'Model summary: the moon makes the tides.' };
  if (system.startsWith('Answer the question')) return { content: 'The moon (model answer).' };
  if (system.startsWith('From the page content given')) return { content: 'The moon pulls the ocean toward it\nthe earth is pulled away' };
  if (body.response_format && /"title"/.test(JSON.stringify(body.response_format))) {
    return { json: { title: /^# (.*)$/m.exec(user)?.[1] ?? 'no heading' } };
  }
  return undefined;
}

beforeAll(async () => {
  site = serveFixtures({
    '/': `<html><body><main><h1>Garden shop</h1><p>The garden shop index lists our products.</p><a href="/product">product</a> <a href="/kettle">kettle</a></main></body></html>`,
    '/product': product.html,
    '/kettle': kettle.html,
    '/article': article.html,
  });
  fake = startFakeChat({ respond });
  trawl = await startTrawl({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-model', TRAWL_MODEL_MAX_RETRIES: '1', TRAWL_MODEL_TIMEOUT_MS: '1500', TRAWL_MODEL_RETRY_MAX_WAIT_MS: '2000' });
  fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
});

afterAll(async () => {
  await trawl?.stop();
  fake?.stop();
  site?.stop();
});

const meta = (doc: any) => doc.metadata as Record<string, unknown>;
const schemaSent = (i = -1) => fake.requests.at(i)!.body.response_format?.json_schema?.schema;

describe('SDK with the model', () => {
  test('json with a JSON schema: the model answers, the schema is sent, modelUsed true', async () => {
    fake.reset();
    fake.script({ json: { name: 'Trail Runner X2 (model)', price: 128 } });
    const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] };
    const doc: any = await fc.scrape(site.url('/product'), { formats: [{ type: 'json', schema, prompt: 'the product' }], maxAge: 0 });
    expect(doc.json).toEqual({ name: 'Trail Runner X2 (model)', price: 128 });
    expect(meta(doc).modelUsed).toBe(true);
    expect(meta(doc).jsonChunks).toBe(1);
    expect(doc.warning).toBeUndefined();
    expect(fake.calls).toBe(1);
    expect(schemaSent()).toEqual(schema);
    expect(fake.requests[0]!.body.model).toBe('fake-model');
    expect(fake.requests[0]!.body.messages[0].content).toContain('Instructions: the product');
    expect(fake.requests[0]!.body.messages[1].content).toContain('Trail Runner X2');
    expect(fake.violations).toEqual([]);
  });

  test('json with a zod schema: converted by the SDK, sent to the model, the answer checked against it', async () => {
    fake.reset();
    fake.script({ json: { name: 'Electric Kettle K100', price: 49.9, brand: 'Boilwell', sku: null } });
    const schema = z.object({ name: z.string(), price: z.number(), brand: z.string(), sku: z.string().nullable() });
    const doc: any = await fc.scrape(site.url('/kettle'), { formats: [{ type: 'json', schema }], maxAge: 0 });
    expect(doc.json).toEqual({ name: 'Electric Kettle K100', price: 49.9, brand: 'Boilwell', sku: null });
    const sent = schemaSent() as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(sent.properties).sort()).toEqual(['brand', 'name', 'price', 'sku']);
    expect(sent.required.sort()).toEqual(['brand', 'name', 'price', 'sku']);
    expect(fake.violations).toEqual([]);
  });

  test('summary, question and highlights: the model answers each, no warning', async () => {
    fake.reset();
    const doc: any = await fc.scrape(site.url('/article'), {
      formats: ['summary', { type: 'question', question: 'What pulls the ocean?' }, { type: 'highlights', query: 'moon ocean' }],
      maxAge: 0,
    });
    expect(doc.summary).toBe('Model summary: the moon makes the tides.');
    expect(doc.answer).toBe('The moon (model answer).');
    expect(doc.highlights).toBe('The moon pulls the ocean toward it\nthe earth is pulled away');
    expect(doc.warning).toBeUndefined();
    expect(meta(doc).modelUsed).toBe(true);
    expect(fake.calls).toBe(3);
    const question = fake.requests.find((r) => r.body.messages[0].content.startsWith('Answer the question'))!;
    expect(question.body.messages[1].content).toContain('Question: What pulls the ocean?');
    expect(question.body.messages[1].content).toContain('The moon pulls the ocean');
  });

  test('crawl with a json format: one model answer per page', async () => {
    fake.reset();
    const job: any = await fc.crawl(site.url('/'), { limit: 3, scrapeOptions: { formats: [{ type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } } } }], maxAge: 0 }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data.length).toBe(3);
    const titles = job.data.map((d: any) => d.json?.title).sort();
    expect(titles).toEqual(['Electric Kettle K100', 'Garden shop', 'Trail Runner X2'].sort());
    for (const d of job.data) expect(meta(d).modelUsed).toBe(true);
    expect(fake.calls).toBe(3);
  });

  test('search with json and summary in scrapeOptions', async () => {
    await fc.scrape(site.url('/article'), { formats: ['markdown'] }); // the local index knows scraped pages
    fake.reset();
    const res: any = await fc.search('tide', { limit: 2, scrapeOptions: { formats: ['summary', { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } } } }], maxAge: 0 } });
    const hit = res.web.find((r: any) => String(r.url).endsWith('/article'));
    expect(hit.json).toEqual({ title: 'Why the tide comes in twice a day' });
    expect(hit.summary).toBe('Model summary: the moon makes the tides.');
    expect(hit.warning).toBeUndefined();
    expect(fake.calls).toBeGreaterThanOrEqual(2);
  });
});

describe('model failures end in a valid result or a clear 4xx/502/504', () => {
  const auth = () => ({ authorization: `Bearer ${trawl.adminKey}` });
  const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] };
  const scrape = () => trawl.post('/v2/scrape', { url: site.url('/product'), formats: [{ type: 'json', schema }], maxAge: 0 }, auth());
  const valid = { json: { name: 'Trail Runner X2', price: 129 } };

  test('invalid JSON: repaired once; twice is a 502 naming it', async () => {
    fake.reset();
    fake.script({ content: 'name: Trail Runner, price 129' }, valid);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.body.data.json).toEqual(valid.json);
    expect(fake.calls).toBe(2);
    expect(fake.requests[1]!.body.messages.at(-1).content).toMatch(/JSON/);

    fake.script({ content: 'not json {' }, { content: 'still not json' });
    const bad = await scrape();
    expect(bad.status).toBe(502);
    expect(bad.body.success).toBe(false);
    expect(bad.body.error).toMatch(/not valid even after a repair turn/);
  });

  test('JSON failing the schema: repaired once; twice is a 502 naming the field', async () => {
    fake.reset();
    fake.script({ json: { name: 'Trail Runner X2', price: 'cheap' } }, valid);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.body.data.json).toEqual(valid.json);
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('price');

    fake.script({ json: { name: 'x' } }, { json: { name: 'x' } });
    const bad = await scrape();
    expect(bad.status).toBe(502);
    expect(bad.body.error).toMatch(/price/);
  });

  test('a truncated answer: repaired once; twice is a 502 saying it was cut off', async () => {
    fake.reset();
    fake.script({ truncated: '{"name": "Trail Ru' }, valid);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.body.data.json).toEqual(valid.json);

    fake.script({ truncated: '{"name": "Tr' }, { truncated: '{"na' });
    const bad = await scrape();
    expect(bad.status).toBe(502);
    expect(bad.body.error).toMatch(/cut off|token limit|truncat/i);
  });

  test('429: retried after Retry-After; still 429 after the retries is a 502', async () => {
    fake.reset();
    fake.script({ status: 429, retryAfter: '0' }, valid);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.body.data.json).toEqual(valid.json);
    expect(fake.requests.length).toBe(2);

    fake.script({ status: 429, retryAfter: '0' }, { status: 429, retryAfter: '0' });
    const bad = await scrape();
    expect(bad.status).toBe(502);
    expect(bad.body.error).toMatch(/HTTP 429/);
  });

  test('a model that does not answer: 504 naming TRAWL_MODEL_TIMEOUT_MS', async () => {
    fake.reset();
    fake.script({ hang: true });
    const res = await scrape();
    expect(res.status).toBe(504);
    expect(res.body.error).toMatch(/TRAWL_MODEL_TIMEOUT_MS/);
  });

  test('summary with a failing model: a 502, not a 500', async () => {
    fake.reset();
    fake.script({ status: 500, message: 'model crashed' }, { status: 500, message: 'model crashed' });
    const res = await trawl.post('/v2/scrape', { url: site.url('/article'), formats: ['summary'], maxAge: 0 }, auth());
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/HTTP 500/);
  });

  test('keyless and bad-key requests with a prompt: 401 and no model call', async () => {
    fake.reset();
    const bad = { authorization: 'Bearer fc-00000000000000000000000000000000' };
    for (const headers of [{}, bad]) {
      expect((await trawl.post('/v2/crawl', { url: site.url('/'), prompt: 'only products' }, headers)).status).toBe(401);
      expect((await trawl.post('/v2/crawl/params-preview', { url: site.url('/'), prompt: 'only products' }, headers)).status).toBe(401);
    }
    // Scrape accepts keyless calls (compat.md §1), never a bad key.
    expect((await trawl.post('/v2/scrape', { url: site.url('/product'), formats: [{ type: 'json', prompt: 'the price' }] }, bad)).status).toBe(401);
    expect((await trawl.post('/v2/scrape', { url: site.url('/article'), formats: ['summary'] }, bad)).status).toBe(401);
    expect(fake.requests.length).toBe(0);
  });
});
