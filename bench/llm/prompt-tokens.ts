#!/usr/bin/env bun
/**
 * Model tokens per call of the prompts on the provider (issue 18 scope 4), counted by the fake
 * OpenAI-compatible server (test/fakes/openai-chat.ts: characters / 4, as a rough tokenizer): the
 * crawl prompt (params-preview) with a valid answer, the same with one repair turn, and the first turn
 * of an interact prompt (system message, tools and a page of 12,000 characters, the most shown at
 * once). Also reports the calls and tokens the model service recorded (what token-usage shows). The
 * per-page numbers of the model formats are in the formats' bench.
 *
 *   bun bench/llm/prompt-tokens.ts
 */
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { Registry } from '../../core/registry.ts';
import { modelFor } from '../../core/llm/service.ts';
import { optionsFromPrompt } from '../../core/crawl/prompt.ts';
import type { Queryable } from '../../core/db/client.ts';
import { startFakeChat } from '../../test/fakes/openai-chat.ts';

const fake = startFakeChat();
const recorded: unknown[][] = [];
const db: Queryable = { query: async (_sql: string, params?: unknown[]) => (recorded.push(params ?? []), []) } as unknown as Queryable;
const config = loadConfig({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'bench', TRAWL_DATA_DIR: '/tmp/trawl-bench-llm', TRAWL_LOG_LEVEL: 'silent' });
const model = modelFor({ config, registry: new Registry(), db, log: silentLogger }, { teamId: 'bench' })!;

const rows: { case: string; calls: number; prompt: number; completion: number }[] = [];
async function measure(name: string, run: () => Promise<unknown>) {
  fake.reset();
  await run();
  rows.push({ case: name, calls: fake.calls, prompt: fake.promptTokens, completion: fake.completionTokens });
}

const url = 'https://docs.example.com/';
await measure('crawl prompt, valid answer', async () => {
  fake.script({ json: { includePaths: ['^/blog/2024/'], limit: 50, sitemap: 'skip' } });
  await optionsFromPrompt(model, url, 'Crawl only the blog posts of 2024, at most 50 pages, without the sitemap');
});
await measure('crawl prompt, one repair turn', async () => {
  fake.script({ json: { includePaths: '^/blog/' } }, { json: { includePaths: ['^/blog/'] } });
  await optionsFromPrompt(model, url, 'Only the blog');
});
await measure('interact prompt, first turn (12,000-char page)', async () => {
  const page = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(211).slice(0, 12_000);
  const tool = (name: string) => ({ type: 'function' as const, function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { selector: { type: 'string' } } } } });
  await model.chat({
    messages: [
      { role: 'system', content: 'You control a live web page in a browser for the user. Use the tools to act on the page.' },
      { role: 'user', content: `What is this page about?\n\n--- Current page ---\nURL: ${url}\nTitle: Docs\n\n${page}` },
    ],
    tools: ['click', 'type', 'press', 'goto', 'scroll', 'wait_for', 'read_page', 'run_javascript'].map(tool),
    purpose: 'interact:prompt',
  });
});
fake.stop();

console.log('case'.padEnd(50), 'calls', 'prompt tok', 'completion tok', 'per call');
for (const r of rows) {
  console.log(r.case.padEnd(50), String(r.calls).padStart(5), String(r.prompt).padStart(10), String(r.completion).padStart(14), `${Math.round((r.prompt + r.completion) / Math.max(1, r.calls))}`.padStart(9));
}
console.log(`model_usage rows the service recorded: ${recorded.length}`);
