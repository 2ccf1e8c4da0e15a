/**
 * The model formats through the official SDK (`firecrawl@4.42.0`, unchanged) against a real Trawl
 * with no model configured (the default): json with a JSON schema and with a zod schema (the SDK
 * converts it), summary, question and highlights, crawl with a json format, and search with json
 * and summary in `scrapeOptions`: every answer is deterministic, says so in `warning`, and carries
 * `metadata.modelUsed: false`. Fixture pages on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { z } from 'zod';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { KNOWN_PAGES } from './fixtures.ts';

let site: FixtureSite;
let trawl: TestTrawl;
let fc: Firecrawl;
const [product, kettle, article] = KNOWN_PAGES;

beforeAll(async () => {
  site = serveFixtures({
    '/': `<html><body><main><p>The garden shop index lists our products.</p><a href="/product">product</a> <a href="/kettle">kettle</a></main></body></html>`,
    '/product': product.html,
    '/kettle': kettle.html,
    '/article': article.html,
  });
  trawl = await startTrawl({});
  fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

const meta = (doc: any) => doc.metadata as Record<string, unknown>;

describe('SDK, no model configured', () => {
  test('json with a JSON schema: stated fields, nulls, warning, modelUsed false', async () => {
    const doc: any = await fc.scrape(site.url('/product'), { formats: [{ type: 'json', schema: product.schema }] });
    expect(doc.json).toMatchObject({ ...product.stated, warranty: null });
    expect(doc.warning).toMatch(/No language model is configured/);
    expect(meta(doc).modelUsed).toBe(false);
    expect(meta(doc).jsonFilled).toMatchObject({ price: 'json-ld' });
  }, 60_000);

  test('json with a zod schema (converted by the SDK)', async () => {
    const schema = z.object({ name: z.string(), price: z.number(), brand: z.string(), sku: z.string().nullable() });
    const doc: any = await fc.scrape(site.url('/kettle'), { formats: [{ type: 'json', schema }] });
    expect(doc.json).toEqual({ name: 'Electric Kettle K100', price: 49.9, brand: 'Boilwell', sku: null });
  }, 60_000);

  test('summary, question and highlights', async () => {
    const doc: any = await fc.scrape(site.url('/article'), {
      formats: ['summary', { type: 'question', question: 'What pulls the ocean?' }, { type: 'highlights', query: 'moon ocean' }],
    });
    expect(doc.summary).toContain('The moon pulls the ocean toward it');
    expect(doc.answer).toContain('The moon pulls the ocean toward it');
    expect(doc.highlights).toContain('The moon pulls the ocean');
    expect(doc.warning).toMatch(/\[summary\].*\[question\].*\[highlights\]|No language model/);
    expect(meta(doc).modelUsed).toBe(false);
  }, 60_000);

  test('crawl with a json format', async () => {
    const job: any = await fc.crawl(site.url('/'), { limit: 3, scrapeOptions: { formats: [{ type: 'json', schema: { type: 'object', properties: { price: { type: 'number' } } } }] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    const byUrl = new Map(job.data.map((d: any) => [d.metadata.sourceURL ?? d.metadata.url, d]));
    const kettleDoc: any = [...byUrl.values()].find((d: any) => String(d.metadata.url).endsWith('/kettle'));
    expect(kettleDoc.json).toEqual({ price: 49.9 });
    for (const d of job.data) expect(d.warning).toMatch(/No language model/);
  }, 120_000);

  test('search with json and summary in scrapeOptions', async () => {
    // the local index knows pages once they were scraped
    await fc.scrape(site.url('/article'), { formats: ['markdown'] });
    const res: any = await fc.search('tide', { limit: 2, scrapeOptions: { formats: ['summary', { type: 'json', schema: { type: 'object', properties: { author: { type: 'string' } } } }] } });
    const hit = res.web.find((r: any) => String(r.url).endsWith('/article'));
    expect(hit.json).toEqual({ author: 'Maria Lopez' });
    expect(hit.summary).toContain('moon');
    expect(hit.warning).toMatch(/No language model/);
  }, 120_000);

  test('batch scrape with json and summary', async () => {
    const job: any = await fc.batchScrape([site.url('/kettle'), site.url('/article')], { options: { formats: ['summary', { type: 'json', schema: { type: 'object', properties: { brand: { type: 'string' } } } }] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    const kettleDoc = job.data.find((d: any) => String(d.metadata.url).endsWith('/kettle'));
    expect(kettleDoc.json).toEqual({ brand: 'Boilwell' });
    const articleDoc = job.data.find((d: any) => String(d.metadata.url).endsWith('/article'));
    expect(articleDoc.json).toEqual({ brand: null });
    expect(articleDoc.summary).toContain('moon');
  }, 120_000);

  test('v1 scrapeUrl with json + jsonOptions, and the older extract format', async () => {
    const v1 = fc.v1;
    const doc: any = await v1.scrapeUrl(site.url('/kettle'), { formats: ['json'], jsonOptions: { schema: { type: 'object', properties: { price: { type: 'number' } } } } } as any);
    expect(doc.success).toBe(true);
    expect(doc.json).toEqual({ price: 49.9 });
    const old: any = await v1.scrapeUrl(site.url('/kettle'), { formats: ['extract'], extract: { schema: { type: 'object', properties: { weight: { type: 'string' } } } } } as any);
    expect(old.json ?? old.extract).toEqual({ weight: '1.1 kg' });
  }, 60_000);

  test('a schema that is not JSON Schema is a 400 naming it', async () => {
    let error: any;
    try {
      await fc.scrape(site.url('/product'), { formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'strnig' } } } }] });
    } catch (e) {
      error = e;
    }
    expect(String(error?.message)).toMatch(/json\.schema is not a valid JSON Schema/);
  }, 60_000);
});
