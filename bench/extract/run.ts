#!/usr/bin/env bun
/**
 * Extract benchmark (issue 19 closing note): credits, model tokens and wall time of one extract over
 * the 10 product pages of the fixture shop (test/extract/site.ts), through the real HTTP API, queue
 * and worker of a Trawl started in this process, with the fake OpenAI-compatible model
 * (test/fakes/openai-chat.ts; tokens are its count: characters / 4) answering each page's product,
 * optionally after `--model-ms` of simulated model latency; then the same extract with no model
 * configured (the deterministic path, with a one-product schema: `filled` counts its fields; with the
 * model it counts the products found). Fresh scrapes every round (`maxAge: 0`).
 *
 *   bun bench/extract/run.ts [--rounds 3] [--model-ms 0]
 *
 * Needs no network. Prints a table and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { startTrawl, type TestTrawl } from '../../test/helpers/trawl.ts';
import { startFakeChat } from '../../test/fakes/openai-chat.ts';
import { answerFor, startShop } from '../../test/extract/site.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, 'model-ms': { type: 'string', default: '0' } } });
const rounds = Number(values.rounds);
const modelMs = Number(values['model-ms']);

const shop = startShop(10);
const fake = startFakeChat({
  respond: (body) => {
    const page = body.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '').join('\n');
    const answer = { json: answerFor(page) ?? { products: [] } };
    return modelMs > 0 ? { after: modelMs, answer } : answer;
  },
});
const schema = {
  type: 'object',
  properties: { products: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } } } },
};
const body = {
  urls: Array.from({ length: 10 }, (_, i) => shop.url(`/p/${i + 1}`)),
  prompt: 'List every product with its price.',
  schema,
  scrapeOptions: { maxAge: 0 },
};

/** Without a model the stated-facts path fills one product's fields (the pages state one product each). */
const plainBody = { ...body, schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, brand: { type: 'string' } } } };

async function once(t: TestTrawl, request: Record<string, unknown>): Promise<{ ms: number; credits: number; tokens: number; filled: number; warning: boolean }> {
  const started = performance.now();
  const r = await t.post('/v2/extract', request);
  if (r.status !== 200) throw new Error(`start: ${r.status} ${r.text}`);
  for (;;) {
    const s = (await t.get(`/v2/extract/${r.body.id}`)).body;
    if (s.status !== 'processing') {
      if (s.status !== 'completed') throw new Error(`extract ${s.status}: ${s.error}`);
      const filled = Array.isArray(s.data?.products) ? s.data.products.length : Object.values(s.data ?? {}).filter((v) => v !== null).length;
      return { ms: performance.now() - started, credits: s.creditsUsed, tokens: s.tokensUsed, filled, warning: Boolean(s.warning) };
    }
    await Bun.sleep(20);
  }
}

const rows: Record<string, unknown>[] = [];
for (const [label, env, request] of [['fake model', { OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-bench' }, body], ['no model', {}, plainBody]] as const) {
  const t = await startTrawl({ TRAWL_AUTH: 'off', ...env });
  try {
    await once(t, request); // warm-up (engine, first queries)
    fake.reset();
    const runs = [];
    for (let i = 0; i < rounds; i++) runs.push(await once(t, request));
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    rows.push({
      model: label, pages: 10, rounds, credits: runs[0].credits, tokens: runs[0].tokens, modelCalls: fake.calls / rounds,
      msMedian: Math.round(ms[Math.floor(ms.length / 2)]), msMax: Math.round(ms.at(-1)!), filled: runs[0].filled, warning: runs[0].warning,
    });
  } finally {
    await t.stop();
  }
}
fake.stop();
shop.stop();
console.table(rows);
console.log(JSON.stringify({ bench: 'extract', modelMs, rows }));
