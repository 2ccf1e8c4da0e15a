/**
 * `/metrics` in the Prometheus text format (issue 24 scope 3) and the hooks that count every HTTP
 * request by method, route pattern (`/v2/crawl/:id`, never the raw path; `unmatched` for 404s of
 * unknown paths) and status. Access follows `config.metrics`: open, off (404 as for any unknown
 * path) or a Bearer token (401 without it). The metric definitions live in core/metrics.
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { observeHttp, registry } from '../../metrics/index.ts';
import { TrawlError } from '../../errors.ts';
import { bearerKey } from '../../auth/authenticate.ts';
import { timingSafeEqual } from 'node:crypto';

const started = new WeakMap<Request, number>();

/** The `/metrics` route and the global request counting hooks; `.use` it before the other routes. */
export function metricsRoutes(services: Services) {
  const { access, token } = services.config.metrics;
  const app = new Elysia({ name: 'routes/metrics' })
    .onRequest(({ request }) => void started.set(request, performance.now()))
    .onAfterResponse({ as: 'global' }, (ctx) => {
      const { request, route, set } = ctx;
      const t0 = started.get(request);
      if (t0 === undefined) return;
      const { error, code } = ctx as { error?: unknown; code?: string | number };
      const status = error === undefined ? Number(set.status) || 200 : errorStatus(code, error);
      observeHttp(request.method, route || 'unmatched', status, performance.now() - t0);
    });
  if (access === 'off') return app;
  return app.get(
    '/metrics',
    async ({ request, set }) => {
      if (access === 'token' && !sameToken(bearerKey(request.headers.get('authorization')), token!)) {
        throw new TrawlError('UNAUTHORIZED', 'The metrics token is missing or wrong: send "Authorization: Bearer <TRAWL_METRICS>".');
      }
      set.headers['content-type'] = registry.contentType;
      return registry.metrics();
    },
    { detail: { summary: 'Prometheus metrics of this process', tags: ['Health'] } },
  );
}

/** Constant-time comparison of the sent token with the configured one. */
function sameToken(sent: string | undefined, expected: string): boolean {
  if (!sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The status the app's onError (core/http/errors.ts) answers an error with: it returns a Response of
 * its own, so `set.status` does not show it. Mirrors `toTrawlError`'s mapping without its logging.
 */
function errorStatus(code: string | number | undefined, error: unknown): number {
  if (error instanceof TrawlError) return error.status;
  if (code === 'NOT_FOUND') return 404;
  if (code === 'VALIDATION' || code === 'PARSE' || code === 'INVALID_COOKIE_SIGNATURE') return (error as { cause?: unknown })?.cause instanceof TrawlError ? (error as { cause: TrawlError }).cause.status : 400;
  return (error as { status?: number })?.status === 413 ? 413 : 500;
}
