#!/usr/bin/env bun
/**
 * Model tokens and chunks per page of the `json` and `summary` formats (issue 18 "done when"), and
 * ms per page of the deterministic paths, through a real Trawl (`POST /v2/scrape`) on the `--pages`
 * largest pages of the PostgreSQL manual (/usr/share/doc/postgresql-doc-15/html, Debian's
 * postgresql-doc-15) served on 127.0.0.1.
 *
 * - With the fake OpenAI-compatible model (test/fakes/openai-chat.ts) counting tokens as characters
 *   / 4 (a rough tokenizer): per page the calls, prompt and completion tokens, and chunks (json:
 *   `metadata.jsonChunks`; summary: the map calls, one when the page fits one call). The fake's
 *   answers are short (a schema sample; a 5-sentence summary), so completion tokens are the fake's,
 *   prompt tokens are Trawl's. `--context` sets TRAWL_MODEL_CONTEXT_TOKENS (default 8192).
 * - With no model configured: ms per page (alternating formats per page, `--rounds` rounds) of
 *   markdown (baseline), json, summary, question and highlights.
 *
 *   bun bench/model-formats/tokens.ts [--pages 20] [--context 8192] [--rounds 3]
 *
 * Needs no network. Prints tables and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTrawl, type TestTrawl } from '../../test/helpers/trawl.ts';
import { startFakeChat } from '../../test/fakes/openai-chat.ts';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '20' }, context: { type: 'string', default: '8192' }, rounds: { type: 'string', default: '3' } } });
const PG = '/usr/share/doc/postgresql-doc-15/html';
const files = readdirSync(PG)
  .filter((f) => f.endsWith('.html'))
  .map((f) => ({ f, size: statSync(join(PG, f)).size }))
  .sort((a, b) => b.size - a.size)
  .slice(0, Number(values.pages));

const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (req) => new Response(readFileSync(join(PG, new URL(req.url).pathname.slice(1))), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
});
const pageUrl = (f: string) => `http://127.0.0.1:${site.port}/${f}`;
const schema = { type: 'object', properties: { title: { type: 'string' }, topics: { type: 'array', items: { type: 'string' } }, version: { type: 'string' } } };
const SUMMARY = 'This chapter of the PostgreSQL manual explains a feature. It lists the commands. It gives examples. It notes the limits. It links to related sections.';

async function scrape(t: TestTrawl, url: string, formats: unknown[]) {
  const res = await t.post('/v2/scrape', { url, formats, maxAge: 0, timeout: 120_000 }, { authorization: `Bearer ${t.adminKey}` });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  return res.body.data;
}

const fake = startFakeChat({ respond: (body) => ((body.messages[0]?.content ?? '').startsWith('Summarize') ? { content: SUMMARY } : undefined) });
const withModel = await startTrawl({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'bench', TRAWL_MODEL_CONTEXT_TOKENS: values.context! });
const tokenRows: { page: string; bytes: number; markdownChars: number; format: string; calls: number; chunks: number; prompt: number; completion: number }[] = [];
for (const { f, size } of files) {
  const md = await scrape(withModel, pageUrl(f), ['markdown']);
  for (const format of ['json', 'summary'] as const) {
    fake.reset();
    const doc = await scrape(withModel, pageUrl(f), format === 'json' ? [{ type: 'json', schema }] : ['summary']);
    const chunks = format === 'json' ? Number(doc.metadata.jsonChunks) : fake.calls > 1 ? fake.calls - 1 : 1;
    tokenRows.push({ page: f, bytes: size, markdownChars: md.markdown.length, format, calls: fake.calls, chunks, prompt: fake.promptTokens, completion: fake.completionTokens });
  }
}
await withModel.stop();
fake.stop();

const without = await startTrawl({});
const formats: Record<string, unknown[]> = {
  'markdown (baseline)': ['markdown'],
  json: [{ type: 'json', schema }],
  summary: ['summary'],
  question: [{ type: 'question', question: 'How do I create an index on an expression?' }],
  highlights: [{ type: 'highlights', query: 'transaction isolation level' }],
};
const ms: Record<string, number[]> = Object.fromEntries(Object.keys(formats).map((k) => [k, []]));
for (const { f } of files) await scrape(without, pageUrl(f), ['markdown']); // warm-up
for (let r = 0; r < Number(values.rounds); r++) {
  for (const { f } of files) {
    const names = Object.keys(formats);
    if (r % 2) names.reverse(); // alternate the order between rounds
    for (const name of names) {
      const started = performance.now();
      await scrape(without, pageUrl(f), formats[name]!);
      ms[name]!.push(performance.now() - started);
    }
  }
}
await without.stop();
site.stop(true);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`model tokens per page (fake: characters / 4), context ${values.context} tokens, ${files.length} largest pg-docs pages`);
console.log('page'.padEnd(28), 'KiB'.padStart(5), 'md chars'.padStart(9), 'format'.padEnd(8), 'calls chunks  prompt  completion');
for (const r of tokenRows) {
  console.log(r.page.padEnd(28), String(Math.round(r.bytes / 1024)).padStart(5), String(r.markdownChars).padStart(9), r.format.padEnd(8), String(r.calls).padStart(5), String(r.chunks).padStart(6), String(r.prompt).padStart(7), String(r.completion).padStart(11));
}
const totals = Object.fromEntries(['json', 'summary'].map((format) => {
  const rows = tokenRows.filter((r) => r.format === format);
  return [format, { pages: rows.length, promptPerPage: Math.round(sum(rows.map((r) => r.prompt)) / rows.length), completionPerPage: Math.round(sum(rows.map((r) => r.completion)) / rows.length), chunksPerPage: Number((sum(rows.map((r) => r.chunks)) / rows.length).toFixed(2)), maxChunks: Math.max(...rows.map((r) => r.chunks)), callsPerPage: Number((sum(rows.map((r) => r.calls)) / rows.length).toFixed(2)) }];
}));
for (const [format, t] of Object.entries(totals)) console.log(`${format}: per page ${t.promptPerPage} prompt + ${t.completionPerPage} completion tokens, ${t.chunksPerPage} chunks (max ${t.maxChunks}), ${t.callsPerPage} calls`);
console.log('\ndeterministic paths over HTTP (no model), ms per page');
const timing = Object.fromEntries(Object.entries(ms).map(([k, xs]) => [k, { mean: Number((sum(xs) / xs.length).toFixed(1)), median: Number(median(xs).toFixed(1)) }]));
for (const [k, t] of Object.entries(timing)) console.log(`${k.padEnd(20)} mean ${String(t.mean).padStart(7)}  median ${String(t.median).padStart(7)}`);
console.log(JSON.stringify({ context: Number(values.context), pages: files.length, totals, timing, tokenRows }));
