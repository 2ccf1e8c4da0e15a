/**
 * HTTP for search provider plugins: one JSON request bounded by the search deadline, with failures
 * turned into TrawlErrors that name the provider and say what went wrong (`[brave] HTTP 401:
 * SUBSCRIPTION_TOKEN_INVALID ...`, `[serper] no answer within 3000 ms`). The core treats any failure
 * as "try the next provider".
 */
import { TrawlError } from '../errors.ts';
import type { PluginContext } from '../plugin.ts';
import { withDeadline } from '../net/deadline.ts';

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  /** Reads the provider's error message from its JSON error body. */
  errorMessage?: (body: any) => string | undefined;
}

/**
 * Sends one request and returns the parsed JSON body.
 * @throws TrawlError GATEWAY_TIMEOUT when the deadline passes; UPSTREAM_ERROR for network failures,
 *         non-2xx statuses (message from the provider's error body) and bodies that are not JSON
 */
export async function providerJson<T = any>(provider: string, url: string, req: ProviderRequest, ctx: PluginContext): Promise<T> {
  const remaining = Math.max(1, ctx.deadline - Date.now());
  return withDeadline(remaining, ctx.signal, (signal) => requestJson<T>(provider, url, req, signal, remaining));
}

/** providerJson's request and answer under `signal`, which aborts at the deadline (`remaining` ms) or with the caller. */
async function requestJson<T>(provider: string, url: string, req: ProviderRequest, signal: AbortSignal, remaining: number): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: req.method ?? 'GET',
      headers: { accept: 'application/json', ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal,
      redirect: 'follow',
    });
  } catch (e) {
    if (signal.aborted) {
      throw new TrawlError('GATEWAY_TIMEOUT', `[${provider}] no answer within ${remaining} ms`, { cause: e });
    }
    throw new TrawlError('UPSTREAM_ERROR', `[${provider}] request failed: ${(e as Error).message}`, { cause: e });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if (signal.aborted) throw new TrawlError('GATEWAY_TIMEOUT', `[${provider}] no answer within ${remaining} ms`, { cause: e });
    throw new TrawlError('UPSTREAM_ERROR', `[${provider}] reading the answer failed: ${(e as Error).message}`, { cause: e });
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const detail = (body !== undefined ? req.errorMessage?.(body) : undefined) ?? text.replace(/\s+/g, ' ').slice(0, 200);
    throw new TrawlError('UPSTREAM_ERROR', `[${provider}] HTTP ${res.status}${detail ? `: ${detail}` : ''}`, {
      details: { provider, status: res.status },
    });
  }
  if (body === undefined || typeof body !== 'object') {
    throw new TrawlError('UPSTREAM_ERROR', `[${provider}] the answer is not JSON (${res.headers.get('content-type') ?? 'no content type'})`);
  }
  return body as T;
}
