/**
 * The playground at `/` (issue 24 scope 5): one static HTML page with its script inline
 * (core/http/playground/index.html), embedded in the binary as text, no CDN. It calls the public API
 * like any client (POST /v2/scrape, POST /v2/crawl, the crawl WebSocket), so keys, limits and
 * credits apply as usual. A Content-Security-Policy allows only that inline script (by its hash),
 * same-origin requests and WebSockets, and no framing.
 */
import { Elysia } from 'elysia';
import { createHash } from 'node:crypto';
import pageText from '../playground/index.html' with { type: 'text' };

// bun-types types every `.html` import as an HTML bundle; with `type: 'text'` Bun gives the text.
const page = pageText as unknown as string;

/** CSP source of the page's one inline script: its SHA-256, base64. */
function scriptHash(html: string): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
}

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': [
    "default-src 'none'",
    `script-src ${scriptHash(page)}`,
    "style-src 'unsafe-inline'",
    // Screenshots are blob URLs of this server, or of TRAWL_PUBLIC_URL when that differs.
    'img-src * data:',
    "connect-src 'self' ws: wss:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
};

export function playgroundRoutes() {
  return new Elysia({ name: 'routes/playground' }).get('/', () => new Response(page, { headers: HEADERS }), { detail: { hide: true } });
}
