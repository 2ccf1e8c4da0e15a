/**
 * Shared plumbing of the provider fakes: a Bun server on 127.0.0.1 that records every request (method,
 * path, query, headers, JSON body) and switches behaviour by `mode`. Test-only code.
 */
import type { FakeMode } from './corpus.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body?: any;
}

export interface Fake {
  /** Origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  requests: RecordedRequest[];
  mode: FakeMode;
  /** How long `slow` waits before answering, ms. */
  slowMs: number;
  stop(): void;
}

/**
 * Starts a fake. `handle` answers in mode `ok`; `failure` builds the provider's error response for
 * the failing modes (`unauthorized`, `rate-limited`, `server-error`).
 */
export function startFake(
  handle: (req: RecordedRequest) => Response | Promise<Response>,
  failure: (mode: 'unauthorized' | 'rate-limited' | 'server-error') => Response,
): Fake {
  const fake: Fake = { origin: '', requests: [], mode: 'ok', slowMs: 5_000, stop: () => {} };
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const text = request.method === 'POST' ? await request.text() : '';
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const rec: RecordedRequest = { method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body };
      fake.requests.push(rec);
      switch (fake.mode) {
        case 'slow':
          await Bun.sleep(fake.slowMs);
          return handle(rec);
        case 'not-json':
          return new Response('<html><body>Service temporarily unavailable</body></html>', { headers: { 'content-type': 'text/html' } });
        case 'ok':
          return handle(rec);
        default:
          return failure(fake.mode);
      }
    },
  });
  fake.origin = `http://127.0.0.1:${server.port}`;
  fake.stop = () => server.stop(true);
  return fake;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}
