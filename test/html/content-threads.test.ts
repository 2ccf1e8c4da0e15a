/**
 * Content threads (core/pipeline/content-threads.ts): a document built on a thread equals the one
 * built on the main thread, errors come back as TrawlErrors with their code, tasks spread over the
 * threads, and close fails what is still running instead of hanging.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { Registry } from '../../core/registry.ts';
import { TrawlError } from '../../core/errors.ts';
import type { EngineResponse } from '../../core/plugin.ts';
import { buildDocument, runContext, type ScrapeRequest } from '../../core/pipeline/scrape.ts';
import { createContentThreads } from '../../core/pipeline/content-threads.ts';
import { options, PAGES } from './helpers.ts';

const config = loadConfig({ TRAWL_LOG_LEVEL: 'silent', TRAWL_CONTENT_THREADS: '2' });
const threads = createContentThreads(config, silentLogger)!;
afterAll(() => threads.close());

function page(html: string, url = 'http://127.0.0.1:9/article.html'): EngineResponse {
  const body = new TextEncoder().encode(html);
  return { url, statusCode: 200, headers: { 'content-type': 'text/html' }, contentType: 'text/html', body, text: html, engine: 'fetch' };
}

function request(over: Partial<ScrapeRequest['options']> = {}): ScrapeRequest {
  return { scrapeId: 'scrape-1', url: 'http://127.0.0.1:9/article.html', sourceURL: 'http://127.0.0.1:9/article.html', options: options({ formats: [{ type: 'html' }, { type: 'rawHtml' }, { type: 'links' }], ...over }) };
}

async function here(response: EngineResponse, req: ScrapeRequest) {
  return buildDocument(response, req, { registry: new Registry() }, runContext(req, { config, log: silentLogger, blobs: {} as never }));
}

describe('content threads', () => {
  test('the size comes from the config; 0 means no pool', () => {
    expect(threads.size).toBe(2);
    expect(createContentThreads(loadConfig({ TRAWL_CONTENT_THREADS: '0' }), silentLogger)).toBeUndefined();
  });

  test('a document built on a thread equals the one built here', async () => {
    const html = readFileSync(join(PAGES, readdirSync(PAGES).filter((f) => f.endsWith('.html')).sort()[0]), 'utf8');
    const req = request();
    const there = await threads.build(page(html), req, Date.now() + 30_000);
    expect(there).toEqual(await here(page(html), req));
    expect(String(there.html).length).toBeGreaterThan(100);
    expect(Array.isArray(there.links)).toBe(true);
  });

  test('errors come back as TrawlErrors with their code and status', async () => {
    const e = await threads.build(page('<p>x</p>'), request({ includeTags: ['p[['] }), Date.now() + 30_000).catch((x) => x);
    expect(e).toBeInstanceOf(TrawlError);
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.status).toBe(400);
  });

  test('many tasks at once all resolve, in any order', async () => {
    const docs = await Promise.all(
      Array.from({ length: 40 }, (_, i) => threads.build(page(`<main><h1>Page ${i}</h1><p>${'word '.repeat(50)}</p></main>`), request(), Date.now() + 30_000)),
    );
    docs.forEach((d, i) => expect(String(d.html)).toContain(`Page ${i}`));
  });

  test('close fails running and later tasks instead of hanging', async () => {
    const pool = createContentThreads(config, silentLogger)!;
    const big = `<main><p>${'text '.repeat(200)}</p></main>`.repeat(2000);
    const running = pool.build(page(big), request(), Date.now() + 30_000).catch((e) => e);
    await Bun.sleep(20);
    await pool.close();
    const outcome = await running;
    // Either it finished before close, or it failed with a retryable error.
    if (outcome instanceof Error) expect((outcome as TrawlError).retryable).toBe(true);
    const later = await pool.build(page('<p>x</p>'), request(), Date.now() + 30_000).catch((e) => e);
    expect(later).toBeInstanceOf(TrawlError);
  });
});
