/**
 * A fixture web site served on 127.0.0.1 by the test itself (tests never reach the internet).
 * Routes map a path to a handler or a static response; unknown paths answer 404 with a small page.
 */

export type FixtureRoute =
  | string
  | { body: string | Uint8Array; status?: number; headers?: Record<string, string> }
  | ((req: Request, url: URL) => Response | Promise<Response>);

export interface FixtureSite {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  url(path: string): string;
  /** Paths requested so far, in order (path + search). */
  hits: string[];
  stop(): void;
}

/**
 * Serves `routes` on 127.0.0.1 (or `hostname`) at a free port.
 * A string route is served as `text/html; charset=utf-8`.
 */
export function serveFixtures(routes: Record<string, FixtureRoute>, hostname = '127.0.0.1'): FixtureSite {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname,
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      hits.push(url.pathname + url.search);
      const route = routes[url.pathname + url.search] ?? routes[url.pathname];
      if (route === undefined) {
        return new Response('<html><head><title>Not found</title></head><body><h1>Not found</h1><p>No such page.</p></body></html>', {
          status: 404,
          headers: { 'content-type': 'text/html; charset=utf-8' },
        });
      }
      if (typeof route === 'function') return route(req, url);
      if (typeof route === 'string') return new Response(route, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      return new Response(route.body as BodyInit, { status: route.status ?? 200, headers: route.headers ?? { 'content-type': 'text/html; charset=utf-8' } });
    },
  });
  const origin = `http://${hostname}:${server.port}`;
  return { origin, url: (p) => origin + p, hits, stop: () => server.stop(true) };
}
