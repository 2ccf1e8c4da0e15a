/**
 * MCP over streamable HTTP at `/mcp` (issue 24 scope 2), stateless: each POST gets a fresh MCP server
 * and transport (JSON responses, no session id), so any API process can answer any call. Authenticated
 * like the API: with `TRAWL_AUTH=keys` a valid key (`Authorization: Bearer …`) is required (401
 * otherwise), and each tool call runs as an in-process API request with that key, so restrictions,
 * rate limits and credits apply as for direct calls. GET (server-sent events) and DELETE answer 405.
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { authenticate, bearerKey } from '../../auth/authenticate.ts';
import { forwardedHeaders } from '../client-ip.ts';

/**
 * The `/mcp` route.
 * @param handle the app's own `handle` (tool calls go through it, no socket)
 */
export function mcpRoutes(services: Services, handle: (req: Request) => Promise<Response>) {
  const answer = async ({ request, body }: { request: Request; body: unknown }) => {
    await authenticate(services.db, services.config, bearerKey(request.headers.get('authorization')), false);
    // Loaded on the first call: the MCP SDK and its schemas cost ~50 ms of start-up otherwise.
    const [{ WebStandardStreamableHTTPServerTransport }, { apiCaller, createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('../../mcp/server.ts'),
    ]);
    const api = apiCaller(handle, new URL(request.url).origin, forwardedHeaders(request));
    const server = createMcpServer(api);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      // With JSON responses the answer is complete once returned.
      void server.close();
    }
  };
  const notAllowed = () =>
    new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send POST.' }, id: null }), {
      status: 405,
      headers: { 'content-type': 'application/json', allow: 'POST' },
    });
  return new Elysia({ name: 'routes/mcp' })
    .post('/mcp', answer, { detail: { summary: 'MCP (streamable HTTP) with the firecrawl-mcp tools', tags: ['MCP'] } })
    .get('/mcp', notAllowed, { detail: { hide: true } })
    .delete('/mcp', notAllowed, { detail: { hide: true } });
}
