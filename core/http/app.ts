/**
 * The HTTP application: one Elysia instance composed of route modules, with the single error mapping
 * of core/http/errors.ts, a child logger per request, and the OpenAPI/Swagger docs. JSON bodies are
 * read by core/http/body.ts (byte limit as they arrive, depth, storable strings) before validation;
 * validation checks the body as sent (`normalize: 'typebox'`: Elysia's default cleaner would turn a
 * string `headers` into an object of its characters before the check). Workers never import this file.
 */
import { Elysia } from 'elysia';
import { isProduction } from 'elysia/error';
import type { Services } from '../services.ts';
import { errorResponse, toTrawlError } from './errors.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { scrapeRoutes } from './routes/scrape.ts';
import { blobRoutes } from './routes/blobs.ts';
import { docsRoutes } from './routes/docs.ts';
import { playgroundRoutes } from './routes/playground.ts';
import { accountRoutes } from './routes/accounts.ts';
import { crawlRoutes } from './routes/crawl.ts';
import { batchRoutes } from './routes/batch.ts';
import { mapRoutes } from './routes/map.ts';
import { wsRoutes } from './routes/ws.ts';
import { searchRoutes } from './routes/search.ts';
import { interactRoutes } from './routes/interact.ts';
import { parseRoutes } from './routes/parse.ts';
import { supportRoutes } from './routes/support.ts';
import { extractRoutes } from './routes/extract.ts';
import { agentRoutes } from './routes/agent.ts';
import { monitorRoutes } from './routes/monitor.ts';
import { clockFor } from '../monitor/clock.ts';
import { keepFailure } from '../support/failures.ts';
import { PARSE_MAX_BODY_BYTES } from './models/parse.ts';
import { newId } from '../ids.ts';
import { TrawlError } from '../errors.ts';
import { readJsonBody } from './body.ts';

/** The upload route, which reads its multipart body itself under its own limit. */
const PARSE_PATH = '/v2/parse';

/** Whether Elysia runs in production mode (NODE_ENV=production when it was first imported; see `enterProductionMode`). */
export const httpProduction: boolean = isProduction;

/** Builds the app; call `.listen()` on the result or use `.handle(request)` in tests. */
export function createApp(services: Services) {
  const log = services.log.child({ component: 'http' });
  const maxBody = services.config.maxBodyBytes;
  // Declared lengths are refused on arrival; bodies without Content-Length are counted as they are
  // read (readJsonBody). Bun's own limit (an empty 413) stays as a backstop. File uploads
  // (POST /v2/parse) have their own, larger limit, which that route checks itself.
  const readBody = ({ request }: { request: Request }, contentType: string) =>
    new URL(request.url).pathname === PARSE_PATH ? null : readJsonBody(request, contentType, maxBody);
  // The support and MCP routes reach this app in-process (its OpenAPI document, validation re-runs, tool calls).
  let self: { handle(request: Request): Promise<Response> } | undefined;
  const handle = (request: Request) => self!.handle(request);
  const app = new Elysia({ name: 'trawl', serve: { maxRequestBodySize: Math.max(maxBody, PARSE_MAX_BODY_BYTES) * 2 } })
    .onRequest(({ request, set }) => {
      const id = request.headers.get('x-request-id') ?? newId();
      set.headers['x-request-id'] = id;
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > maxBody && new URL(request.url).pathname !== PARSE_PATH) {
        throw new TrawlError('PAYLOAD_TOO_LARGE', `The request body is ${length} bytes; at most ${maxBody} bytes are accepted.`);
      }
    })
    // Every body is read here (null: none, or the upload route's, left unread for that route), so
    // Elysia's own parsers never run. The 'application/json' after it is never reached; it names the
    // content type for the OpenAPI document (which ignores function parsers).
    // (Elysia's types take no string here; its runtime does, as for route-level `parse`.)
    .on({ as: 'global' }, 'parse', [readBody, 'application/json'] as never)
    .onError(async ({ code, error, request, body, set }) => {
      const e = toTrawlError(code, error, log.child({ method: request.method, path: new URL(request.url).pathname }));
      await keepFailure(services.db, services.config, request, body, e, log, String(set.headers['x-request-id'] ?? '')); // for POST /v2/support/ask
      return errorResponse(e);
    })
    .use(metricsRoutes(services))
    .use(docsRoutes())
    .use(playgroundRoutes())
    .use(healthRoutes(services))
    .use(scrapeRoutes(services))
    .use(blobRoutes(services))
    .use(accountRoutes(services))
    .use(crawlRoutes(services))
    .use(batchRoutes(services))
    .use(mapRoutes(services))
    .use(wsRoutes(services))
    .use(searchRoutes(services))
    .use(interactRoutes(services))
    .use(parseRoutes(services))
    .use(extractRoutes(services))
    .use(agentRoutes(services))
    .use(monitorRoutes(services, clockFor(services.config)))
    .use(supportRoutes(services, handle))
    .use(mcpRoutes(services, handle));
  self = app;
  return app;
}

export type TrawlApp = ReturnType<typeof createApp>;
