/**
 * Crawl options from a natural-language `prompt` (interface.md "Crawl request body"; compat.md §7.6;
 * issue 18 scope 4) with the fake OpenAI-compatible model (test/fakes/openai-chat.ts): the generated
 * options are validated, explicit parameters override them, params-preview shows them; an answer
 * that stays invalid after the repair turn, or whose patterns are refused, falls back to the explicit
 * options with a `warning`; a model that fails is a 502/504, never a 500; an instance without a model
 * crawls with the explicit options and says so.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import { apiOf, waitDone, allDocs, type Api } from './helpers.ts';

setDefaultTimeout(60_000);

let trawl: TestTrawl;
let bare: TestTrawl;
let site: CrawlSite;
let api: Api;
let model: FakeChat;

beforeAll(async () => {
  site = startCrawlSite();
  model = startFakeChat();
  trawl = await startTrawl({ OPENAI_BASE_URL: model.baseUrl, MODEL_NAME: 'fake', TRAWL_MODEL_SMALL: 'fake-small', TRAWL_MODEL_TIMEOUT_MS: '1500', TRAWL_MODEL_MAX_RETRIES: '1' });
  bare = await startTrawl();
  api = apiOf(trawl);
});
afterAll(async () => {
  await trawl?.stop();
  await bare?.stop();
  site?.stop();
  model?.stop();
});

test('a prompt generates options; explicit parameters win; only known fields are kept', async () => {
  model.reset();
  model.script({ content: 'Sure: {"includePaths": ["^/blog/"], "sitemap": "skip", "limit": 2, "evil": "x"}' });
  const res = await api.post('/v2/crawl', { url: `${site.origin}/blog/`, prompt: 'only the blog, at most two pages', sitemap: 'include' });
  expect(res.status).toBe(200);
  expect(res.body.promptGeneratedOptions).toEqual({ includePaths: ['^/blog/'], sitemap: 'skip', limit: 2 });
  expect(res.body.finalCrawlerOptions).toMatchObject({ includePaths: ['^/blog/'], sitemap: 'include', limit: 2, prompt: 'only the blog, at most two pages' });
  expect(res.body.warning).toBeUndefined();
  const request = model.requests.at(-1)!.body;
  expect(request.model).toBe('fake-small');
  expect(request.response_format.json_schema.name).toBe('crawl_options');
  expect(request.messages.at(-1).content).toContain('only the blog');
  expect(model.violations).toEqual([]);
  await waitDone(api, `/v2/crawl/${res.body.id}`);
  const docs = await allDocs(api, `/v2/crawl/${res.body.id}`);
  expect(docs.length).toBe(2);
  expect(docs.every((d) => d.metadata.sourceURL.includes('/blog/'))).toBe(true);
});

test('params-preview shows the options; an invalid answer is repaired once', async () => {
  model.reset();
  model.script({ json: { excludePaths: '/drafts/' } }, { json: { excludePaths: ['/drafts/'], crawlEntireDomain: true } });
  const preview = await api.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'skip drafts' });
  expect(preview.body).toEqual({ success: true, data: { url: `${site.origin}/`, excludePaths: ['/drafts/'], crawlEntireDomain: true } });
  expect(model.calls).toBe(2);
  // The repair turn shows the model its answer and what failed.
  expect(model.requests[1]!.body.messages.at(-1).content).toContain('/excludePaths: must be array');
});

test('answers that stay unusable fall back to the explicit options with a warning', async () => {
  model.reset();
  model.script({ content: 'I cannot help with that.' }, { content: 'Really, I cannot.' });
  const bad = await api.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: '???' });
  expect(bad.status).toBe(200);
  expect(bad.body.data).toEqual({ url: `${site.origin}/` });
  expect(bad.body.warning).toContain('Failed to process natural language prompt. Please try rephrasing.');

  model.script({ json: { includePaths: ['(?=x)'] } });
  const patterns = await api.post('/v2/crawl', { url: `${site.origin}/`, prompt: 'x', limit: 1 });
  expect(patterns.status).toBe(200);
  expect(patterns.body.warning).toContain('Failed to process natural language prompt');
  expect(patterns.body.finalCrawlerOptions.includePaths).toEqual([]);
  expect(patterns.body.finalCrawlerOptions.limit).toBe(1);

  model.script({ truncated: '{"includePaths": ["^/bl' }, { truncated: '{"includePaths": ["^/bl' });
  const cut = await api.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'blog' });
  expect(cut.status).toBe(200);
  expect(cut.body.warning).toContain('cut off');
});

test('a model that fails or does not answer: 502 / 504, no crawl started', async () => {
  model.reset();
  model.script({ status: 500 }, { status: 500 });
  const failed = await api.post('/v2/crawl', { url: `${site.origin}/`, prompt: 'blog' });
  expect(failed.status).toBe(502);
  model.script({ hang: true });
  const slow = await api.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'blog' });
  expect(slow.status).toBe(504);
  expect(slow.body.success).toBe(false);
});

test('without a model: the explicit options, and a warning saying the prompt was not used', async () => {
  const preview = await apiOf(bare).post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'anything' });
  expect(preview.status).toBe(200);
  expect(preview.body.data).toEqual({ url: `${site.origin}/` });
  expect(preview.body.warning).toContain('OPENAI_BASE_URL');
  const crawl = await apiOf(bare).post('/v2/crawl', { url: `${site.origin}/`, prompt: 'anything', limit: 1 });
  expect(crawl.status).toBe(200);
  expect(crawl.body.warning).toContain('No language model is configured');
  expect(crawl.body.promptGeneratedOptions).toEqual({});
  await waitDone(apiOf(bare), `/v2/crawl/${crawl.body.id}`);
});
