/**
 * Crawl options from a natural-language `prompt` (interface.md "Crawl request body"; compat.md §7.6)
 * with a fake OpenAI-compatible model served by the test (an LLM cannot run here): the generated
 * options are validated, explicit parameters override them, params-preview shows them, a model that
 * answers nonsense is a 400 and an instance without a model answers 503.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { apiOf, waitDone, allDocs, type Api } from './helpers.ts';

setDefaultTimeout(60_000);

let trawl: TestTrawl;
let bare: TestTrawl;
let site: CrawlSite;
let api: Api;
let answer = '';
const prompts: string[] = [];
const model = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const body = (await req.json()) as { messages: { content: string }[] };
    prompts.push(body.messages.at(-1)!.content);
    return Response.json({ choices: [{ message: { role: 'assistant', content: answer } }], usage: { total_tokens: 42 } });
  },
});

beforeAll(async () => {
  site = startCrawlSite();
  trawl = await startTrawl({ OPENAI_BASE_URL: `http://127.0.0.1:${model.port}/v1`, MODEL_NAME: 'fake' });
  bare = await startTrawl();
  api = apiOf(trawl);
});
afterAll(async () => {
  await trawl?.stop();
  await bare?.stop();
  site?.stop();
  model.stop(true);
});

test('a prompt generates options; explicit parameters win; only known fields are kept', async () => {
  answer = 'Sure: {"includePaths": ["^/blog/"], "sitemap": "skip", "limit": 2, "evil": "x", "delay": "soon"}';
  const res = await api.post('/v2/crawl', { url: `${site.origin}/blog/`, prompt: 'only the blog, at most two pages', sitemap: 'include' });
  expect(res.status).toBe(200);
  expect(res.body.promptGeneratedOptions).toEqual({ includePaths: ['^/blog/'], sitemap: 'skip', limit: 2 });
  expect(res.body.finalCrawlerOptions).toMatchObject({ includePaths: ['^/blog/'], sitemap: 'include', limit: 2, prompt: 'only the blog, at most two pages' });
  expect(prompts.at(-1)).toContain('only the blog');
  await waitDone(api, `/v2/crawl/${res.body.id}`);
  const docs = await allDocs(api, `/v2/crawl/${res.body.id}`);
  expect(docs.length).toBe(2);
  expect(docs.every((d) => d.metadata.sourceURL.includes('/blog/'))).toBe(true);
});

test('params-preview, nonsense answers and bad patterns from the model', async () => {
  answer = '{"excludePaths": ["/drafts/"], "crawlEntireDomain": true}';
  const preview = await api.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'skip drafts' });
  expect(preview.body).toEqual({ success: true, data: { url: `${site.origin}/`, excludePaths: ['/drafts/'], crawlEntireDomain: true } });
  answer = 'I cannot help with that.';
  const bad = await api.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: '???' });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toBe('Failed to process natural language prompt. Please try rephrasing.');
  answer = '{"includePaths": ["(?=x)"]}';
  expect((await api.post('/v2/crawl', { url: `${site.origin}/`, prompt: 'x' })).status).toBe(400);
});

test('without a model: 503', async () => {
  const res = await apiOf(bare).post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'anything' });
  expect(res.status).toBe(503);
  expect((await apiOf(bare).post('/v2/crawl', { url: `${site.origin}/`, prompt: 'anything' })).status).toBe(503);
});
