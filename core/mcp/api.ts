/**
 * How the MCP tools reach Trawl: an `ApiCaller` sends one API request (`POST /v2/scrape` ...) and
 * returns its status and JSON body. Both transports build it on the in-process HTTP app's `handle`
 * (no socket, no loopback), so every tool call passes the same admission as the API: the caller's
 * key, its restrictions, rate limits and credits, the request schemas and their 400 messages.
 */

/** One API answer: HTTP status and the parsed JSON body (undefined when the body is not JSON). */
export interface ApiAnswer {
  status: number;
  body: any;
}

/** Sends one request to the Trawl API on behalf of the MCP caller. */
export type ApiCaller = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal) => Promise<ApiAnswer>;

/**
 * An ApiCaller on a fetch-like handler (the app's `handle`).
 * @param handle answers one Request (Elysia's `app.handle`)
 * @param base origin used in the request URLs (absolute URLs in answers, such as a crawl's `next`, use it)
 * @param headers headers of every request: `authorization` with the caller's key, forwarding headers
 */
export function apiCaller(handle: (req: Request) => Promise<Response>, base: string, headers: Headers = new Headers()): ApiCaller {
  return async (method, path, body, signal) => {
    const h = new Headers(headers);
    h.delete('content-length');
    h.delete('accept');
    h.delete('mcp-session-id');
    h.delete('mcp-protocol-version');
    if (body !== undefined) h.set('content-type', 'application/json');
    else h.delete('content-type');
    const res = await handle(new Request(base + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), signal }));
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text ? { error: text } : undefined;
    }
    return { status: res.status, body: parsed };
  };
}
