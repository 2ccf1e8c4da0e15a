/**
 * The official SDK `firecrawl@4.42.0`, unchanged, on the prompts (issue 18 scope 4):
 * `crawlParamsPreview` and `crawl` with a `prompt`, with the fake model and again with no model
 * configured (the explicit options, and `warning` set).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';

setDefaultTimeout(90_000);

let site: CrawlSite;
let fake: FakeChat;
let withModel: TestTrawl;
let without: TestTrawl;
const sdk = (t: TestTrawl) => new Firecrawl({ apiKey: t.adminKey!, apiUrl: t.base });

beforeAll(async () => {
  site = startCrawlSite();
  fake = startFakeChat();
  withModel = await startTrawl({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake' });
  without = await startTrawl();
});
afterAll(async () => {
  await withModel?.stop();
  await without?.stop();
  fake?.stop();
  site?.stop();
});

describe('firecrawl SDK prompts', () => {
  test('crawlParamsPreview and crawl with a prompt, with the model', async () => {
    fake.script({ json: { includePaths: ['^/blog/'], limit: 2 } });
    const preview = await sdk(withModel).crawlParamsPreview(`${site.origin}/blog/`, 'only the blog, two pages');
    expect(preview).toMatchObject({ url: `${site.origin}/blog/`, includePaths: ['^/blog/'], limit: 2 });
    expect(preview.warning).toBeUndefined();

    fake.script({ json: { includePaths: ['^/blog/'], limit: 2 } });
    const job = await sdk(withModel).crawl(`${site.origin}/blog/`, { prompt: 'only the blog, two pages', pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data.length).toBe(2);
    expect(job.data.every((d) => String(d.metadata?.sourceURL).includes('/blog/'))).toBe(true);
    expect(fake.violations).toEqual([]);
  });

  test('without a model: the explicit options apply and warning says why', async () => {
    const preview = await sdk(without).crawlParamsPreview(`${site.origin}/`, 'only the blog');
    expect(preview.url).toBe(`${site.origin}/`);
    expect(String(preview.warning)).toContain('No language model is configured');
    const job = await sdk(without).crawl(`${site.origin}/blog/`, { prompt: 'only the blog', limit: 1, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data.length).toBe(1);
  });
});
