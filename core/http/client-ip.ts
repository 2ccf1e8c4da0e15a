/**
 * The caller's IP address, for the per-IP rate limits of keyless calls (compat.md §18.2). An
 * `onRequest` hook records it per request: the socket address, or the first `X-Forwarded-For` entry
 * when `TRAWL_TRUST_PROXY` is set. Requests Trawl forwards to itself (v1 adapters) carry the original
 * caller in a header signed with a per-process secret, which outside callers cannot forge.
 */
import { randomBytes } from 'node:crypto';
import { Elysia } from 'elysia';
import type { ResolvedConfig } from '../config.ts';

const ips = new WeakMap<Request, string>();
const SECRET = randomBytes(16).toString('hex');
const FORWARD_HEADER = 'x-trawl-forwarded-for';

/** The recorded IP of a request, or `unknown`. */
export function clientIp(request: Request): string {
  return ips.get(request) ?? 'unknown';
}

/** Headers for a request Trawl sends to itself on behalf of `original` (keeps the caller's IP). */
export function forwardedHeaders(original: Request): Headers {
  const headers = new Headers(original.headers);
  headers.set(FORWARD_HEADER, `${SECRET} ${clientIp(original)}`);
  return headers;
}

function resolveIp(request: Request, socketIp: string | undefined, config: ResolvedConfig): string {
  const forwarded = request.headers.get(FORWARD_HEADER);
  if (forwarded) {
    const [secret, ip] = forwarded.split(' ');
    if (secret === SECRET && ip) return ip;
  }
  if (config.accounts.trustProxy) {
    const xff = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (xff) return xff;
  }
  return socketIp ?? 'unknown';
}

/** Plugin recording the client IP of every request (global `onRequest`). */
export function clientIpPlugin(config: ResolvedConfig) {
  return new Elysia({ name: 'http/client-ip' }).onRequest(({ request, server }) => {
    ips.set(request, resolveIp(request, server?.requestIP(request)?.address, config));
  });
}
