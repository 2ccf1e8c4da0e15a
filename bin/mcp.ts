/**
 * `trawl mcp`: the MCP server on stdio (issue 24 scope 2), with firecrawl-mcp's tool names, so an MCP
 * client configured with `npx firecrawl-mcp` switches by changing the command. By default Trawl runs
 * in this process on its data dir (embedded database, in-process queue and workers; the HTTP app
 * answers tool calls through `handle`, no port is opened); with TRAWL_API_URL (or FIRECRAWL_API_URL)
 * the tools call that server. The key sent is TRAWL_API_KEY (or FIRECRAWL_API_KEY). stdout carries
 * only MCP messages: logs go to stderr.
 */
import pino from 'pino';
import { enterProductionMode, type ResolvedConfig } from '../core/config.ts';
import type { Logger } from '../core/log.ts';

const HELP = `Usage: trawl mcp

Serves MCP on stdin/stdout with the tools firecrawl_scrape, firecrawl_map, firecrawl_search,
firecrawl_crawl and firecrawl_check_crawl_status.

  In-process (default): Trawl runs in this process on TRAWL_DATA_DIR (not shared with a running
  "trawl serve" on the same directory: use its /mcp endpoint or TRAWL_API_URL instead).
  TRAWL_API_URL / FIRECRAWL_API_URL   call this Trawl server instead
  TRAWL_API_KEY / FIRECRAWL_API_KEY   the API key sent (not needed with TRAWL_AUTH=off)`;

/** Runs the stdio MCP server until stdin closes or a signal arrives; returns the exit code. */
export async function mcpMain(argv: string[], config: ResolvedConfig): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const log: Logger = pino({ level: config.logLevel, base: { pid: process.pid, mode: 'mcp' } }, pino.destination(2));
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection'));
  process.on('uncaughtException', (err) => log.error({ err }, 'uncaught exception'));
  enterProductionMode(); // before the HTTP framework is first imported
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createMcpServer } = await import('../core/mcp/server.ts');
  const { openApi } = await import('./in-process.ts');
  const { api, close } = await openApi(config, log, config.client.apiUrl, config.client.apiKey);
  const server = createMcpServer(api);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(new StdioServerTransport());
  log.info({ target: config.client.apiUrl ?? 'in-process' }, 'MCP server on stdio');
  await closed;
  await server.close().catch(() => {});
  await close();
  return 0;
}
