/**
 * The HTTP application: one Elysia instance composed of route modules, with the single error mapping
 * of core/http/errors.ts, a child logger per request, and the OpenAPI/Swagger docs. Workers never
 * import this file.
 */
import { Elysia } from 'elysia';
import type { Services } from '../services.ts';
import { errorResponse, toTrawlError } from './errors.ts';
import { healthRoutes } from './routes/health.ts';
import { scrapeRoutes } from './routes/scrape.ts';
import { blobRoutes } from './routes/blobs.ts';
import { docsRoutes } from './routes/docs.ts';
import { accountRoutes } from './routes/accounts.ts';
import { crawlRoutes } from './routes/crawl.ts';
import { batchRoutes } from './routes/batch.ts';
import { mapRoutes } from './routes/map.ts';
import { wsRoutes } from './routes/ws.ts';
import { searchRoutes } from './routes/search.ts';
import { interactRoutes } from './routes/interact.ts';
import { parseRoutes } from './routes/parse.ts';
import { PARSE_MAX_BODY_BYTES } from './models/parse.ts';
import { newId } from '../ids.ts';
import { TrawlError } from '../errors.ts';

/** Builds the app; call `.listen()` on the result or use `.handle(request)` in tests. */
export function createApp(services: Services) {
  const log = services.log.child({ component: 'http' });
  const maxBody = services.config.maxBodyBytes;
  // Bun refuses bodies past its own limit with an empty 413; keep that as a backstop for bodies
  // without Content-Length and answer the declared ones here, with the error envelope.
  // File uploads (POST /v2/parse) have their own, larger limit, which that route checks itself.
  return new Elysia({ name: 'trawl', serve: { maxRequestBodySize: Math.max(maxBody, PARSE_MAX_BODY_BYTES) * 2 } })
    .onRequest(({ request, set }) => {
      const id = request.headers.get('x-request-id') ?? newId();
      set.headers['x-request-id'] = id;
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > maxBody && new URL(request.url).pathname !== '/v2/parse') {
        throw new TrawlError('PAYLOAD_TOO_LARGE', `The request body is ${length} bytes; at most ${maxBody} bytes are accepted.`);
      }
    })
    .onError(({ code, error, request }) => {
      const e = toTrawlError(code, error, log.child({ method: request.method, path: new URL(request.url).pathname }));
      return errorResponse(e);
    })
    .use(docsRoutes())
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
    .use(parseRoutes(services));
}

export type TrawlApp = ReturnType<typeof createApp>;
