/**
 * Trawl's built-in MCP (issue 24 scope 2): the SDK's Client lists and calls firecrawl-mcp's tools over
 * stdio (`bun bin/trawl.ts mcp`, in-process on a temporary data dir) and over streamable HTTP at
 * `/mcp` (authenticated like the API: 401 without a key, the caller's key on every tool call).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedMigratedDataDir } from '../helpers/db.ts';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';

setDefaultTimeout(180_000);

const TOOLS = ['firecrawl_scrape', 'firecrawl_map', 'firecrawl_search', 'firecrawl_crawl', 'firecrawl_check_crawl_status', 'firecrawl_extract'];
const page = (title: string, links: string[]) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>The ${title} page.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

let site: FixtureSite;
beforeAll(() => {
  site = serveFixtures({ '/': page('Home', ['/a', '/b']), '/a': page('Alpha', ['/']), '/b': page('Beta', ['/a']) });
});
afterAll(() => site.stop());

const textOf = (r: any): string => r.content.map((c: any) => c.text).join('');

/** The checks both transports pass: tools listed, scrape, map, crawl, status, an API error as a tool error. */
async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(TOOLS);
  const scrapeTool = tools.find((t) => t.name === 'firecrawl_scrape')!;
  expect(scrapeTool.inputSchema.required).toEqual(['url']);
  expect(Object.keys(scrapeTool.inputSchema.properties ?? {})).toContain('jsonOptions');

  const scraped = await client.callTool({ name: 'firecrawl_scrape', arguments: { url: site.url('/a'), formats: ['markdown', 'links'], onlyMainContent: false } });
  expect(scraped.isError).toBeFalsy();
  const doc = JSON.parse(textOf(scraped));
  expect(doc.markdown).toContain('# Alpha');
  expect(doc.links).toContain(site.url('/'));

  const mapped = await client.callTool({ name: 'firecrawl_map', arguments: { url: site.url('/') } });
  expect(mapped.isError).toBeFalsy();
  const urls = JSON.parse(textOf(mapped)).links.map((l: any) => l.url);
  expect(urls).toEqual(expect.arrayContaining([site.url('/a'), site.url('/b')]));

  const crawled = await client.callTool({ name: 'firecrawl_crawl', arguments: { url: site.url('/'), limit: 10, pollInterval: 0.2, scrapeOptions: { formats: ['markdown'] } } });
  expect(crawled.isError).toBeFalsy();
  const crawl = JSON.parse(textOf(crawled));
  expect(crawl.status).toBe('completed');
  expect(crawl.data.map((d: any) => d.metadata.sourceURL).sort()).toEqual([site.url('/'), site.url('/a'), site.url('/b')].sort());

  const status = await client.callTool({ name: 'firecrawl_check_crawl_status', arguments: { id: crawl.id } });
  expect(JSON.parse(textOf(status)).completed).toBe(3);

  const searched = await client.callTool({ name: 'firecrawl_search', arguments: { query: 'Alpha', limit: 5 } });
  expect(searched.isError).toBeFalsy();
  expect(JSON.parse(textOf(searched))).toHaveProperty('web');

  const bad = await client.callTool({ name: 'firecrawl_scrape', arguments: { url: 'not a url' } });
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain('400');
  const extracted = await client.callTool({ name: 'firecrawl_extract', arguments: { urls: [site.url('/a')], prompt: 'The page title', schema: { type: 'object', properties: { title: { type: 'string' } } }, pollInterval: 0.2 } });
  expect(extracted.isError).toBeFalsy();
  const extract = JSON.parse(textOf(extracted));
  expect(extract.status).toBe('completed');
  expect(extract.data.title).toBe('Alpha');
  expect(extract.warning).toContain('model');

  const unknown = await client.callTool({ name: 'firecrawl_no_such_tool', arguments: {} });
  expect(unknown.isError).toBe(true);
}

describe('stdio: trawl mcp', () => {
  let dataDir: string;
  let client: Client;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'trawl-mcp-'));
    await seedMigratedDataDir(dataDir); // a migrated database, as after a first run: no initdb here
    const env: Record<string, string> = {};
    for (const k of ['PATH', 'HOME', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k]!;
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(import.meta.dir, '../../bin/trawl.ts'), 'mcp'],
        env: { ...env, TRAWL_DATA_DIR: dataDir, TRAWL_AUTH: 'off', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_LOG_LEVEL: 'warn' },
        stderr: 'inherit',
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('lists and calls the firecrawl-mcp tools in-process', () => exercise(client));
});

describe('HTTP: /mcp', () => {
  let trawl: TestTrawl;
  beforeAll(async () => (trawl = await startTrawl({})));
  afterAll(() => trawl.stop());

  test('lists and calls the tools with the caller key', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${trawl.adminKey}` } } }));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  test('trawl mcp with TRAWL_API_URL calls the server with TRAWL_API_KEY', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const env: Record<string, string> = {};
    for (const k of ['PATH', 'HOME', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k]!;
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(import.meta.dir, '../../bin/trawl.ts'), 'mcp'],
        env: { ...env, FIRECRAWL_API_URL: trawl.base, FIRECRAWL_API_KEY: trawl.adminKey!, TRAWL_LOG_LEVEL: 'warn' },
        stderr: 'inherit',
      }),
    );
    try {
      const scraped = await client.callTool({ name: 'firecrawl_scrape', arguments: { url: site.url('/b') } });
      expect(scraped.isError).toBeFalsy();
      expect(JSON.parse(textOf(scraped)).markdown).toContain('# Beta');
    } finally {
      await client.close();
    }
  });

  test('refuses a call without a valid key', async () => {
    for (const headers of [{}, { authorization: 'Bearer fc-not-a-key' }] as Record<string, string>[]) {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.base}/mcp`), { requestInit: { headers } }))).rejects.toThrow(/Unauthorized/);
    }
    const res = await fetch(`${trawl.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});

describe('firecrawl-mcp arguments', () => {
  test('format names with their options become format objects as firecrawl-mcp sends them', async () => {
    const { scrapeBody } = await import('../../core/mcp/tools.ts');
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    expect(
      scrapeBody({ formats: ['markdown', 'json', 'screenshot', 'query'], jsonOptions: { schema }, queryOptions: { prompt: 'who?' }, includeTags: [], waitFor: 10 }),
    ).toEqual({ formats: ['markdown', { type: 'json', schema }, 'screenshot', { type: 'query', prompt: 'who?' }], waitFor: 10 });
    expect(scrapeBody({ formats: ['screenshot'], screenshotOptions: { fullPage: true }, parsers: ['pdf'], pdfOptions: { maxPages: 2 } })).toEqual({
      formats: [{ type: 'screenshot', fullPage: true }],
      parsers: [{ type: 'pdf', maxPages: 2 }],
    });
  });
});
