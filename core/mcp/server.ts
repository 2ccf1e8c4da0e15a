/**
 * The Trawl MCP server (issue 24 scope 2) on the official SDK's low-level `Server`: lists the tools of
 * core/mcp/tools.ts and runs them through an `ApiCaller`. Transport-free: `trawl mcp` connects it to
 * stdio (bin/mcp.ts), the `/mcp` route to a streamable HTTP transport (core/http/routes/mcp.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.ts';
import type { ApiCaller } from './api.ts';
import { MCP_TOOLS } from './tools.ts';

export type { ApiCaller } from './api.ts';
export { apiCaller } from './api.ts';

/** A new MCP server whose tool calls go to `api` (one per connection or stateless HTTP request). */
export function createMcpServer(api: ApiCaller): Server {
  const server = new Server({ name: 'trawl', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: MCP_TOOLS.map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema: inputSchema as { type: 'object' }, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) {
      return { content: [{ type: 'text', text: `Unknown tool "${request.params.name}". Tools: ${MCP_TOOLS.map((t) => t.name).join(', ')}.` }], isError: true };
    }
    const args = request.params.arguments ?? {};
    const missing = ((tool.inputSchema.required as string[] | undefined) ?? []).filter((k) => args[k] === undefined || args[k] === '');
    if (missing.length) return { content: [{ type: 'text', text: `${tool.name}: missing required argument ${missing.join(', ')}.` }], isError: true };
    return tool.run(args, api, extra.signal);
  });
  return server;
}
