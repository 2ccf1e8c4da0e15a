/**
 * `firecrawl-mcp` (the official MCP server, a devDependency) run unchanged against Trawl: it is
 * started over stdio with FIRECRAWL_API_URL pointing at a local Trawl, and its tools are called with
 * MCP JSON-RPC messages, as an MCP client would.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';

const MCP = resolve(import.meta.dir, '../../node_modules/firecrawl-mcp/dist/index.js');

/** A minimal MCP client over a child process's stdio (newline-delimited JSON-RPC 2.0). */
class McpClient {
  private nextId = 1;
  private buffer = '';
  private pending = new Map<number, (msg: any) => void>();
  private proc: ReturnType<typeof Bun.spawn>;

  constructor(env: Record<string, string>) {
    this.proc = Bun.spawn(['bun', MCP], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
    this.read();
  }

  private async read() {
    const decoder = new TextDecoder();
    for await (const chunk of this.proc.stdout as unknown as AsyncIterable<Uint8Array>) {
      this.buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl).trim();
        this.buffer = this.buffer.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line);
        if (msg.id !== undefined && this.pending.has(msg.id)) {
          this.pending.get(msg.id)!(msg);
          this.pending.delete(msg.id);
        }
      }
    }
  }

  private send(msg: unknown) {
    const stdin = this.proc.stdin as import('bun').FileSink;
    stdin.write(JSON.stringify(msg) + '\n');
    stdin.flush();
  }

  request(method: string, params: unknown, timeoutMs = 60_000): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`MCP ${method} timed out`)), timeoutMs);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        if (msg.error) reject(new Error(JSON.stringify(msg.error)));
        else resolvePromise(msg.result);
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown = {}) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    const result = await this.request('tools/call', { name, arguments: args });
    return { text: (result.content ?? []).map((c: any) => c.text ?? '').join('\n'), isError: Boolean(result.isError) };
  }

  close() {
    this.proc.kill();
  }
}

let site: FixtureSite;
let trawl: TestTrawl;
let mcp: McpClient;

beforeAll(async () => {
  site = serveFixtures({
    '/': '<html><head><title>Lighthouse keepers</title><meta name="description" content="Life at the lighthouse"></head><body><main><h1>Lighthouse keepers</h1><p>The keepers trimmed the lamp wicks every evening and logged passing ships in the lighthouse journal.</p><a href="/log">The journal</a></main></body></html>',
    '/log': '<html><head><title>The journal</title></head><body><main><h1>The journal</h1><p>Entries about storms, fog horns and supply boats from the mainland.</p></main></body></html>',
  });
  trawl = await startTrawl({ TRAWL_AUTH: 'keys' });
  mcp = new McpClient({ FIRECRAWL_API_URL: trawl.base, FIRECRAWL_API_KEY: trawl.adminKey! });
  const init = await mcp.request('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'trawl-test', version: '1.0.0' } });
  expect(init.serverInfo).toBeDefined();
  mcp.notify('notifications/initialized');
}, 120_000);

afterAll(async () => {
  mcp?.close();
  await trawl?.stop();
  site?.stop();
}, 120_000);

describe('firecrawl-mcp against Trawl', () => {
  test('lists the scrape and search tools', async () => {
    const tools = await mcp.request('tools/list', {});
    const names = tools.tools.map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining(['firecrawl_scrape', 'firecrawl_search', 'firecrawl_map']));
  });

  test('firecrawl_scrape returns the page as markdown', async () => {
    const out = await mcp.callTool('firecrawl_scrape', { url: site.url('/'), formats: ['markdown'] });
    expect(out.isError).toBe(false);
    expect(out.text).toContain('The keepers trimmed the lamp wicks');
  });

  test('firecrawl_search finds a page the instance has scraped', async () => {
    await mcp.callTool('firecrawl_scrape', { url: site.url('/log'), formats: ['markdown'] });
    const out = await mcp.callTool('firecrawl_search', { query: 'fog horns supply boats', limit: 5 });
    expect(out.isError).toBe(false);
    expect(out.text).toContain(site.url('/log'));
  });

  test('firecrawl_map lists the links of a site', async () => {
    const out = await mcp.callTool('firecrawl_map', { url: site.url('/') });
    expect(out.isError).toBe(false);
    expect(out.text).toContain(site.url('/log'));
  });
});
