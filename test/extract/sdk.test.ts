/**
 * The official SDK `firecrawl@4.42.0`, unchanged, on extract (issue 19): `extract` with a prompt only,
 * a JSON schema over a glob, a zod schema with `showSources`, and `startExtract` + `getExtractStatus`,
 * against the fake OpenAI-compatible model on a fixture shop; the v1 client's `extract`,
 * `asyncExtract` and `getExtractStatus`; then once with no model configured (the deterministic path:
 * the data the pages state, and `warning` set).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { z } from 'zod';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { answerFor, startShop } from './site.ts';

setDefaultTimeout(120_000);

let shop: FixtureSite;
let fake: FakeChat;
let withModel: AccountsTrawl;
let without: AccountsTrawl;
let key: { key: string; team: string };
let plainKey: { key: string; team: string };

const productsSchema = {
  type: 'object',
  properties: { products: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] } } },
  required: ['products'],
};

beforeAll(async () => {
  shop = startShop(10);
  // Each page's answer is the product its text states (none for the listing page).
  fake = startFakeChat({
    respond: (body) => {
      const page = body.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '').join('\n');
      return { json: answerFor(page) ?? { products: [] } };
    },
  });
  withModel = await startAccountsTrawl({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-extract' });
  without = await startAccountsTrawl();
  key = await withModel.key({ credits: 10_000 });
  plainKey = await without.key({ credits: 10_000 });
});
afterAll(async () => {
  await withModel?.stop();
  await without?.stop();
  fake?.stop();
  shop?.stop();
});

const sdk = (t: AccountsTrawl, k: string) => new Firecrawl({ apiKey: k, apiUrl: t.base });
const names = (data: any) => (data?.products ?? []).map((p: { name: string }) => p.name).sort();

describe('firecrawl SDK extract, with a model', () => {
  test('prompt only: two pages merged, tokens and credits charged to the team', async () => {
    fake.reset();
    const before = await withModel.credits(key.team);
    const res: any = await sdk(withModel, key.key).extract({ urls: [shop.url('/p/1'), shop.url('/p/2')], prompt: 'List the products with their prices.', pollInterval: 1, timeout: 90 });
    expect(res.status).toBe('completed');
    expect(res.data.products).toEqual([{ name: 'Widget 1', price: 11 }, { name: 'Widget 2', price: 12 }]);
    expect(res.warning).toBeUndefined();
    expect(res.sources).toBeUndefined();
    // The tokens are the model's own count of this extract's calls; 1 + 4 credits per page.
    expect(fake.calls).toBe(2);
    expect(res.tokensUsed).toBe(fake.promptTokens + fake.completionTokens);
    expect(res.creditsUsed).toBe(10);
    expect(before - (await withModel.credits(key.team))).toBe(10);
    // The prompt reached the model.
    expect(JSON.stringify(fake.requests[0].body.messages)).toContain('List the products with their prices.');
    expect(fake.violations).toEqual([]);
  });

  test('JSON schema over a glob: the pages the map finds under /p/ are read and merged', async () => {
    fake.reset();
    const res: any = await sdk(withModel, key.key).extract({ urls: [`${shop.origin}/p/*`], schema: productsSchema, systemPrompt: 'You read shop pages.', pollInterval: 1, timeout: 90 });
    expect(res.status).toBe('completed');
    expect(names(res.data)).toEqual(Array.from({ length: 10 }, (_, i) => `Widget ${i + 1}`).sort());
    // the listing page and 10 products
    expect(fake.calls).toBe(11);
    expect(JSON.stringify(fake.requests[0].body.messages)).toContain('You read shop pages.');
    expect(fake.violations).toEqual([]);
  });

  test('zod schema with showSources: each product names the page it came from', async () => {
    fake.reset();
    const schema = z.object({ products: z.array(z.object({ name: z.string(), price: z.number() })) });
    const urls = [shop.url('/p/3'), shop.url('/p/4'), shop.url('/p/3#again')];
    const res: any = await sdk(withModel, key.key).extract({ urls, schema, prompt: 'Products and prices', showSources: true, pollInterval: 1, timeout: 90 });
    expect(res.status).toBe('completed');
    expect(res.data.products).toEqual([{ name: 'Widget 3', price: 13 }, { name: 'Widget 4', price: 14 }]);
    // A value stated by two pages lists both.
    expect(res.sources['products[0]']).toEqual([shop.url('/p/3'), shop.url('/p/3#again')]);
    expect(res.sources['products[1]']).toEqual([shop.url('/p/4')]);
    // zod's schema reached the model as JSON Schema
    const format = fake.requests[0].body.response_format;
    expect(JSON.stringify(format)).toContain('"price"');
  });

  test('startExtract + getExtractStatus', async () => {
    const app = sdk(withModel, key.key);
    const started: any = await app.startExtract({ urls: [shop.url('/p/5')], prompt: 'The product', schema: productsSchema });
    expect(started.success).toBe(true);
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
    let status: any;
    for (let i = 0; i < 600; i++) {
      status = await app.getExtractStatus(started.id);
      if (status.status !== 'processing') break;
      await Bun.sleep(200);
    }
    expect(status.status).toBe('completed');
    expect(status.data).toEqual({ products: [{ name: 'Widget 5', price: 15 }] });
    expect(Date.parse(status.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(status.creditsUsed).toBe(5);
  });
});

describe('firecrawl SDK v1 client', () => {
  test('.v1.extract and .v1.asyncExtract + getExtractStatus through /v1/extract', async () => {
    const v1 = sdk(withModel, key.key).v1;
    const res: any = await v1.extract([shop.url('/p/8')], { prompt: 'Products and prices', schema: z.object({ products: z.array(z.object({ name: z.string(), price: z.number() })) }) });
    expect(res.success).toBe(true);
    expect(res.data.products).toEqual([{ name: 'Widget 8', price: 18 }]);
    const started: any = await v1.asyncExtract([shop.url('/p/9')], { prompt: 'Products and prices' });
    expect(started.success).toBe(true);
    let status: any;
    for (let i = 0; i < 600; i++) {
      status = await v1.getExtractStatus(started.id);
      if (status.status !== 'processing') break;
      await Bun.sleep(200);
    }
    expect(status.status).toBe('completed');
    expect(status.data.products).toEqual([{ name: 'Widget 9', price: 19 }]);
  });
});

describe('firecrawl SDK extract, no model configured', () => {
  test('the deterministic path answers from what the pages state, with a warning', async () => {
    const res: any = await sdk(without, plainKey.key).extract({
      urls: [shop.url('/p/6'), shop.url('/p/7')],
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, brand: { type: 'string' } } },
      showSources: true,
      pollInterval: 1,
      timeout: 90,
    });
    expect(res.status).toBe('completed');
    // scalars: the first page that states them wins
    expect(res.data).toEqual({ name: 'Widget 6', price: 16, brand: 'Acme' });
    expect(res.sources.name).toEqual([shop.url('/p/6')]);
    expect(String(res.warning)).toContain('No language model is configured');
    expect(res.tokensUsed).toBe(0);
  });
});
