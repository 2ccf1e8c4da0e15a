/**
 * The fetch engine: plain HTTP(S) with Bun's fetch. Follows redirects itself (at most 10) so that every
 * hop passes the SSRF guard and connects to the address it checked (core/net/pinned-fetch.ts), enforces the scrape timeout and the body size cap while streaming,
 * accepts gzip/deflate/br (decompressed by the runtime), decodes text with its charset, and reaches the
 * target through an HTTP proxy when the request names one. Serves plain pages; anything needing
 * JavaScript, actions or screenshots goes to the browser engine.
 */
import { defineEngine, type EngineRequest, type EngineResponse, type PluginContext } from '../../core/plugin.ts';
import { TrawlError } from '../../core/errors.ts';
import { pinnedFetch } from '../../core/net/pinned-fetch.ts';
import { assertThreatAllowed } from '../../core/threat/check.ts';
import { decodeBody, isTextual } from '../../core/net/charset.ts';
import { withDeadline } from '../../core/net/deadline.ts';

const MAX_REDIRECTS = 10;

/** Default request headers; user headers override them (case-insensitively). */
export const DEFAULT_HEADERS: Record<string, string> = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Trawl/0.1',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,application/pdf;q=0.9,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9',
  'accept-encoding': 'gzip, deflate, br',
};

function mergeHeaders(user: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...DEFAULT_HEADERS };
  for (const [k, v] of Object.entries(user)) out[k.toLowerCase()] = v;
  return out;
}

/** Reads a body stream up to `maxBytes`, failing clearly past it. */
async function readCapped(res: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  const encoded = res.headers.get('content-encoding');
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw tooLarge(url, maxBytes);
  }
  if (!res.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await res.body.cancel().catch(() => {});
      throw tooLarge(url, maxBytes);
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function tooLarge(url: string, maxBytes: number): TrawlError {
  return new TrawlError(
    'SCRAPE_CONTENT_TOO_LARGE',
    `The response of ${url} is larger than ${maxBytes} bytes, the most Trawl reads (TRAWL_MAX_FETCH_BYTES); it was not scraped.`,
  );
}

/** Maps a low-level fetch failure to a TrawlError naming what went wrong. */
function fetchFailure(error: unknown, url: string, timeoutMs: number, signal: AbortSignal): TrawlError {
  if (error instanceof TrawlError) return error;
  const e = error as { name?: string; code?: string; message?: string };
  if (signal.aborted || e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new TrawlError('SCRAPE_TIMEOUT', `Fetching ${url} did not finish within ${timeoutMs} ms.`);
  }
  const code = String(e.code ?? '');
  if (/CERT|SSL|TLS/i.test(code) || /certificate|SSL|TLS/i.test(e.message ?? '')) {
    return new TrawlError('SCRAPE_SSL_ERROR', `TLS error fetching ${url}: ${e.message}. Set skipTlsVerification to true to ignore certificate errors.`, { cause: error });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /DNS|getaddrinfo/i.test(e.message ?? '')) {
    return new TrawlError('SCRAPE_DNS_RESOLUTION_ERROR', `DNS resolution failed for ${new URL(url).hostname}.`, { cause: error });
  }
  return new TrawlError('SCRAPE_SITE_ERROR', `Fetching ${url} failed: ${e.message ?? code ?? 'connection error'}`, { cause: error, retryable: true });
}

/**
 * Fetches one URL.
 * @throws TrawlError SCRAPE_TIMEOUT, SCRAPE_SSL_ERROR, SCRAPE_DNS_RESOLUTION_ERROR, SCRAPE_SITE_ERROR, UNSAFE_TARGET
 */
export function fetchUrl(request: EngineRequest, ctx: PluginContext): Promise<EngineResponse> {
  return withDeadline(request.timeoutMs, ctx.signal, (signal) => fetchWithin(request, ctx, signal));
}

/** fetchUrl under `signal`, which aborts at the request's timeout or with the caller. */
async function fetchWithin(request: EngineRequest, ctx: PluginContext, signal: AbortSignal): Promise<EngineResponse> {
  const headers = mergeHeaders(request.headers);
  let url = request.url;
  try {
    for (let hop = 0; ; hop++) {
      assertThreatAllowed(url, request.options.threatProtection);
      const res = await pinnedFetch(
        url,
        {
          method: 'GET',
          headers,
          redirect: 'manual',
          signal,
          proxy: request.proxy?.url,
          tls: { rejectUnauthorized: !request.options.skipTlsVerification },
          decompress: true,
        },
        request.targets,
      );
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel().catch(() => {});
        if (hop >= MAX_REDIRECTS) {
          throw new TrawlError('SCRAPE_SITE_ERROR', `Too many redirects (more than ${MAX_REDIRECTS}) starting at ${request.url}.`);
        }
        url = new URL(location, url).href;
        continue;
      }
      const body = await readCapped(res, ctx.config.maxFetchBytes, url);
      const rawType = res.headers.get('content-type') ?? '';
      const contentType = rawType.split(';')[0].trim().toLowerCase() || 'application/octet-stream';
      const responseHeaders: Record<string, string> = {};
      res.headers.forEach((v, k) => (responseHeaders[k.toLowerCase()] = v));
      const text = isTextual(contentType) || contentType === 'application/octet-stream' && !looksBinary(body)
        ? decodeBody(body, rawType).text
        : undefined;
      ctx.log.debug({ url, status: res.status, bytes: body.byteLength, hops: hop }, 'fetched');
      return {
        url,
        statusCode: res.status,
        headers: responseHeaders,
        contentType,
        body,
        text,
        engine: 'fetch',
        proxyUsed: request.proxy?.tier ?? 'basic',
      };
    }
  } catch (error) {
    throw fetchFailure(error, url, request.timeoutMs, signal);
  }
}

/** True when the first bytes hold NULs or a known binary signature (PDF, images, zip). */
function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 512);
  if (head[0] === 0x25 && head[1] === 0x50 && head[2] === 0x44 && head[3] === 0x46) return true; // %PDF
  return head.includes(0);
}

export default defineEngine({
  name: 'fetch',
  features: ['http'],
  cost: 1,
  fetch: fetchUrl,
});
